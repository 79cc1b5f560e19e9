"""Checks every game module's board must pass (the contract of iago.games)."""


def check_push_pop(board, picks):
    """Play the moves chosen by `picks` (indexes into the legal moves, wrapped); after each,
    the position text must read back to itself; then pop everything back, text by text."""
    cls = type(board)
    texts = []
    for pick in picks:
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        texts.append(board.text())
        board.push(moves[pick % len(moves)])
        assert cls(board.text(), board.rules).text() == board.text()
    for text in reversed(texts):
        board.pop()
        assert board.text() == text
