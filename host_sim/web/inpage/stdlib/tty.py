# The page offers no pseudo-terminal (`iago serve --pty` only).
