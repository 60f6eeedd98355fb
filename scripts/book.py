#!/usr/bin/env python3
"""Builds src/engine/book.txt, the engine's opening book, with a UCI chess engine.

The book holds classical positions of the first moves and, for each, the moves the
engine may play there. It grows from the start position, once for each side the engine
plays:
  * where the engine is to move: the best move of a deep search; at the start each first
    move listed in FIRST_MOVES that scores within MARGIN_CP of the best; optionally, for
    its next moves (--variety-plies, off by default), every move within
    VARIETY_MARGIN_CP of the best, so that its games do not all open alike;
  * where the other side is to move: every move a shallow multi-line search scores
    within OPPONENT_MARGIN_CP of its best (the sensible replies), up to OPPONENT_LINES,
    so that the book still answers when the opponent varies.

Needs Python's `chess` package and a UCI engine (Stockfish). Neither the build nor the
tests need this script; it is here so that the book can be made again and checked.

    python3 scripts/book.py --engine /usr/games/stockfish --out src/engine/book.txt
"""

import argparse
import chess
import chess.engine

FIRST_MOVES = ["e2e4", "d2d4", "c2c4", "g1f3"]


def key(board):
    """The part of the FEN the book is keyed on: placement, side to move, castling."""
    return " ".join(board.fen().split()[:3])


def cp(score, turn):
    return score.pov(turn).score(mate_score=100000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="stockfish")
    ap.add_argument("--plies", type=int, default=12, help="book depth in plies")
    ap.add_argument("--depth", type=int, default=16, help="search depth of the engine's moves")
    ap.add_argument("--opponent-depth", type=int, default=10)
    ap.add_argument("--opponent-lines", type=int, default=5)
    ap.add_argument("--opponent-plies", type=int, default=8,
                    help="plies during which the opponent's replies branch")
    ap.add_argument("--margin", type=int, default=30, help="MARGIN_CP")
    ap.add_argument("--opponent-margin", type=int, default=50, help="OPPONENT_MARGIN_CP")
    ap.add_argument("--variety-plies", type=int, default=0,
                    help="plies during which the engine's own near-best moves branch too "
                         "(0: its best move only, as in the committed book)")
    ap.add_argument("--variety-lines", type=int, default=3)
    ap.add_argument("--variety-margin", type=int, default=15, help="VARIETY_MARGIN_CP")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    eng = chess.engine.SimpleEngine.popen_uci(a.engine)
    eng.configure({"Threads": a.threads, "Hash": 128})
    book = {}  # key -> set of moves for the engine
    seen = set()  # (key, engine colour) expanded

    def engine_moves(board, ply):
        if ply == 0:
            lines = len(FIRST_MOVES) + 4
        elif ply < a.variety_plies:
            lines = a.variety_lines
        else:
            lines = 1
        infos = eng.analyse(board, chess.engine.Limit(depth=a.depth), multipv=lines)
        best = cp(infos[0]["score"], board.turn)
        by_move = {i["pv"][0].uci(): cp(i["score"], board.turn) for i in infos if "pv" in i}
        if ply == 0:
            out = [chess.Move.from_uci(m) for m in FIRST_MOVES if by_move.get(m, -10**6) >= best - a.margin]
            return out or [infos[0]["pv"][0]]
        return [chess.Move.from_uci(m) for m, v in by_move.items() if v >= best - a.variety_margin]

    def opponent_moves(board, ply):
        lines = a.opponent_lines if ply < a.opponent_plies else 1
        infos = eng.analyse(board, chess.engine.Limit(depth=a.opponent_depth), multipv=lines)
        best = cp(infos[0]["score"], board.turn)
        return [i["pv"][0] for i in infos if "pv" in i and cp(i["score"], board.turn) >= best - a.opponent_margin]

    def grow(board, ply, colour):
        if ply >= a.plies or board.is_game_over():
            return
        k = key(board)
        if (k, colour, ply) in seen:
            return
        seen.add((k, colour, ply))
        if board.turn == colour:
            moves = engine_moves(board, ply)
            book.setdefault(k, set()).update(m.uci() for m in moves)
        else:
            moves = opponent_moves(board, ply)
        for m in moves:
            board.push(m)
            grow(board, ply + 1, colour)
            board.pop()

    for colour in (chess.WHITE, chess.BLACK):
        grow(chess.Board(), 0, colour)
    eng.quit()

    with open(a.out, "w") as f:
        f.write("# The engine's opening book, made by scripts/book.py: a position (FEN's placement,\n")
        f.write("# side to move and castling) and the moves the engine may play there.\n")
        for k in sorted(book):
            f.write(k + " " + " ".join(sorted(book[k])) + "\n")
    print(len(book), "positions")


if __name__ == "__main__":
    main()
