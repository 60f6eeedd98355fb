OPENQASM 3.0;
include "stdgates.inc";

// A Quantum Chess game, exported by qchess.
// Start: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
// Moves: g1^f3h3 b8^a6c6 f3e5 c6d4 e2e3 d4xc2.m0
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
// Outcomes the game recorded: b[0] = 0

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
bit[1] b;

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

// Ply 1, white: g1^f3h3
sqiswap q[6], q[21]; // g1 f3
iswap q[6], q[23]; // g1 h3

// Ply 2, black: b8^a6c6
sqiswap q[57], q[40]; // b8 a6
iswap q[57], q[42]; // b8 c6

// Ply 3, white: f3e5
iswap q[21], q[36]; // f3 e5

// Ply 4, black: c6d4
iswap q[42], q[27]; // c6 d4

// Ply 5, white: e2e3
iswap q[12], q[20]; // e2 e3

// Ply 6, black: d4xc2.m0
// capture: the knight was not on d4; the move stopped
b[0] = measure q[27]; // d4, recorded 0
if (b[0] == true) { // the move goes on
  // q[64]: a new ancilla, |0>
  iswap q[10], q[64]; // c2 anc
  iswap q[27], q[10]; // d4 c2
}
