"""What the demo and the self-test share when they take the game's place in the loop."""


class NotPlaying:
    """A mode with no game to act on: game commands are refused with `busy`, the reason."""

    busy = "the board is busy"

    def take_back(self, now):
        return False

    def claim(self, now):
        return False

    def suggest(self, now):
        return False

    def flips_pending(self):
        return []

    def new_game(self, now, why="command", settings=None):
        raise ValueError(self.busy)

    def change_settings(self, settings, now):
        raise ValueError(self.busy)
