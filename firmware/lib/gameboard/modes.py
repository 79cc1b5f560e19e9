"""Who has the board: the game's Controller, the Demo or the SelfTest, one at a time
(App.hand_over gives it from one to another).

Each of them is a mode, which the main loop (gameboard/app.py) drives alike:
- switch(cell, closed, now, ambiguous), tick(now);
- compose(now) into `frame`, once `dirty` says the frame changed (compose clears it);
- `outbox` of host-link events, state(), `settings`;
- `save_due` and save(saves): the game at a save point (the demo and the self-test never);
- take_back, claim, suggest, new_game, change_settings, flips_pending for the host link;
- `shares_board`: the game's controller sees the switches too (the demo's stopping disk);
- `stopped`: done, the loop gives the board back to the game.
The demo and the self-test have no game to act on: NotPlaying refuses the game's commands.
"""


class NotPlaying:
    """A mode with no game to act on: game commands are refused with `busy`, the reason."""

    busy = "the board is busy"
    shares_board = False
    stopped = False
    save_due = False      # no game to save

    def take_back(self, now):
        return False

    def claim(self, now):
        return False

    def suggest(self, now):
        return False

    def flips_pending(self):
        return []

    def new_game(self, now, why="command", settings=None, first=None):
        raise ValueError(self.busy)

    def change_settings(self, settings, now, event=None):
        raise ValueError(self.busy)
