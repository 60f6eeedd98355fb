OPENQASM 3.0;
include "stdgates.inc";

// A Quantum Chess game, exported by qchess.
// Start: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
// Moves: e2e4 e7e5 d1^f3h5 b8c6 f3h5^g4
// One qubit per square, 1 = occupied:
//   q[0] = a1, q[1] = b1, q[2] = c1, q[3] = d1, q[4] = e1, q[5] = f1, q[6] = g1, q[7] = h1
//   q[8] = a2, q[9] = b2, q[10] = c2, q[11] = d2, q[12] = e2, q[13] = f2, q[14] = g2, q[15] = h2
//   q[16] = a3, q[17] = b3, q[18] = c3, q[19] = d3, q[20] = e3, q[21] = f3, q[22] = g3, q[23] = h3
//   q[24] = a4, q[25] = b4, q[26] = c4, q[27] = d4, q[28] = e4, q[29] = f4, q[30] = g4, q[31] = h4
//   q[32] = a5, q[33] = b5, q[34] = c5, q[35] = d5, q[36] = e5, q[37] = f5, q[38] = g5, q[39] = h5
//   q[40] = a6, q[41] = b6, q[42] = c6, q[43] = d6, q[44] = e6, q[45] = f6, q[46] = g6, q[47] = h6
//   q[48] = a7, q[49] = b7, q[50] = c7, q[51] = d7, q[52] = e7, q[53] = f7, q[54] = g7, q[55] = h7
//   q[56] = a8, q[57] = b8, q[58] = c8, q[59] = d8, q[60] = e8, q[61] = f8, q[62] = g8, q[63] = h8
// q[64]..q[64]: ancillas of captures and flags of path conditions, from |0>.

// iSWAP, as in qiskit: |01> -> i|10>, |10> -> i|01>; |00> and |11> unchanged.
gate iswap a, b { s a; s b; h a; cx a, b; cx b, a; h b; }
// The inverse of iSWAP: |01> -> -i|10>, |10> -> -i|01>.
gate iswapdg a, b { h b; cx b, a; cx a, b; h a; sdg b; sdg a; }
// The square root of iSWAP, exp(i pi/8 (XX + YY)): |01> -> (|01> + i|10>)/sqrt2.
gate sqiswap a, b {
  h a; h b; cx a, b; rz(-pi/4) b; cx a, b; h a; h b;
  rx(-pi/2) a; rx(-pi/2) b; cx a, b; rz(-pi/4) b; cx a, b; rx(pi/2) a; rx(pi/2) b;
}
// Its inverse, exp(-i pi/8 (XX + YY)): |01> -> (|01> - i|10>)/sqrt2.
gate sqiswapdg a, b {
  rx(-pi/2) a; rx(-pi/2) b; cx a, b; rz(pi/4) b; cx a, b; rx(pi/2) a; rx(pi/2) b;
  h a; h b; cx a, b; rz(pi/4) b; cx a, b; h a; h b;
}

qubit[65] q;

// The start position.
x q[0]; // a1 R
x q[1]; // b1 N
x q[2]; // c1 B
x q[3]; // d1 Q
x q[4]; // e1 K
x q[5]; // f1 B
x q[6]; // g1 N
x q[7]; // h1 R
x q[8]; // a2 P
x q[9]; // b2 P
x q[10]; // c2 P
x q[11]; // d2 P
x q[12]; // e2 P
x q[13]; // f2 P
x q[14]; // g2 P
x q[15]; // h2 P
x q[48]; // a7 p
x q[49]; // b7 p
x q[50]; // c7 p
x q[51]; // d7 p
x q[52]; // e7 p
x q[53]; // f7 p
x q[54]; // g7 p
x q[55]; // h7 p
x q[56]; // a8 r
x q[57]; // b8 n
x q[58]; // c8 b
x q[59]; // d8 q
x q[60]; // e8 k
x q[61]; // f8 b
x q[62]; // g8 n
x q[63]; // h8 r

// Ply 1, white: e2e4
negctrl @ iswap q[20], q[12], q[28]; // e3 e2 e4

// Ply 2, black: e7e5
negctrl @ iswap q[44], q[52], q[36]; // e6 e7 e5

// Ply 3, white: d1^f3h5
negctrl @ negctrl @ sqiswap q[12], q[30], q[3], q[21]; // e2 g4 d1 f3
negctrl @ negctrl @ iswap q[12], q[30], q[3], q[39]; // e2 g4 d1 h5
// flag q[64] ^= OR of e2 (the path is blocked)
negctrl @ x q[12], q[64]; // e2 anc
x q[64]; // anc
ctrl @ negctrl @ negctrl @ iswap q[64], q[12], q[30], q[3], q[39]; // anc e2 g4 d1 h5
// flag q[64] ^= OR of e2 (the path is blocked)
negctrl @ x q[12], q[64]; // e2 anc
x q[64]; // anc
// flag q[64] ^= OR of e2 g4 (the path is blocked)
negctrl @ negctrl @ x q[12], q[30], q[64]; // e2 g4 anc
x q[64]; // anc
negctrl @ ctrl @ iswap q[12], q[64], q[3], q[21]; // e2 anc d1 f3
// flag q[64] ^= OR of e2 g4 (the path is blocked)
negctrl @ negctrl @ x q[12], q[30], q[64]; // e2 g4 anc
x q[64]; // anc

// Ply 4, black: b8c6
iswap q[57], q[42]; // b8 c6

// Ply 5, white: f3h5^g4
iswapdg q[30], q[21]; // g4 f3
sqiswapdg q[30], q[39]; // g4 h5
