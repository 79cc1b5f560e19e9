"""Remote play (docs/remote.md): game codes and signatures, the agreed game's rules for views,
and two `iago serve --sim --remote` processes playing whole games of each game family through a
real Mosquitto that the tests start and stop, the boards compared after every move."""

import json
import random

import pytest

from host_sim.remote.codes import CodeError, GameKeys, new_code, parse
from host_sim.remote.game import AgreedGame, Refused
from remote_harness import (ROOT, Broker, Serve, in_step, play_move, play_to_the_end,
                            start_game, wait_for)

START = {"game": "iago", "rules": "standard", "start": "5/6/7/8/9/8/7/6/5 D"}


# --- codes -----------------------------------------------------------------------------------

def test_a_code_misread_by_one_digit_or_two_swapped_is_refused():
    digits = parse(new_code())
    for i in range(12):
        for d in "0123456789":
            if d != digits[i]:
                with pytest.raises(CodeError, match="a digit is wrong"):
                    parse(digits[:i] + d + digits[i + 1:])
        if i < 11 and digits[i] != digits[i + 1]:
            swapped = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2:]
            with pytest.raises(CodeError):
                parse(swapped)
    assert parse(" %s %s-%s " % (digits[:4], digits[4:8], digits[8:])) == digits
    for text, why in [("", "no game code"), ("12-34", "twelve digits"), ("abcd", "digits only"),
                      (None, "text")]:
        with pytest.raises(CodeError, match=why):
            parse(text)


def test_the_topic_tells_nothing_of_the_key_and_only_the_key_signs():
    code = new_code()
    keys, again, other = GameKeys(code), GameKeys(code.replace("-", " ")), GameKeys(new_code())
    assert keys.game_id == again.game_id != other.game_id
    assert len(keys.game_id) == 16 and keys.root == "iago/v1/" + keys.game_id
    topic = keys.topic("view", "dark")
    body = {"game": keys.game_id, "side": "dark", "moves": ["E4"]}
    signed = keys.sign(topic, body)
    assert again.open(topic, signed) == body
    with pytest.raises(ValueError, match="not signed with this game's code"):
        other.open(other.topic("view", "dark"), other.sign(topic, body)[:-5] + b'0000"}')
    with pytest.raises(ValueError, match="not signed"):
        keys.open(topic, other.sign(topic, body))                  # another game's key
    with pytest.raises(ValueError, match="not signed"):
        keys.open(keys.topic("view", "light"), signed)             # moved to another topic
    tampered = json.loads(signed)
    tampered["body"] = tampered["body"].replace("E4", "E5")
    with pytest.raises(ValueError, match="not signed"):
        keys.open(topic, json.dumps(tampered).encode())
    for junk in (b"", b"[]", b"{}", b'{"body": 1, "mac": 2}', b"\xff\xfe"):
        with pytest.raises(ValueError, match="format"):
            keys.open(topic, junk)


# --- the agreed game ----------------------------------------------------------------------------

def view_of(game, seq, **fields):
    view = game.view("g")
    view.update(seq=seq, **fields)
    return view


def test_views_duplicated_reordered_or_illegal_change_nothing():
    dark, light = AgreedGame(START, "dark"), AgreedGame(START, "light")
    dark.add("E4", "dark")
    first = view_of(dark, 10)
    assert light.merge(first) == [("moves", ["E4"])]
    assert light.merge(first) == []                       # a duplicate
    light.add("F6", "light")
    dark.merge(view_of(light, 20))
    dark.add("D4", "dark")
    later = view_of(dark, 30)
    assert light.merge(later) == [("moves", ["D4"])]
    assert light.merge(dict(first, seq=11)) == []         # an older view, delayed: ignored
    assert light.moves == ["E4", "F6", "D4"]
    cheat = view_of(dark, 40, moves=light.moves + ["C3", "C4"])   # dark moves for light too
    with pytest.raises(Refused, match="not theirs"):
        light.merge(cheat)
    with pytest.raises(Refused, match="E5 is not a legal move for dark"):
        AgreedGame(START, "light").merge(view_of(AgreedGame(START, "dark"), 41, moves=["E5"]))
    with pytest.raises(Refused, match="not theirs"):       # a legal move, then one for light
        light.merge(view_of(dark, 41, moves=light.moves + ["C3"]))
    with pytest.raises(Refused, match="part from"):
        light.merge(view_of(dark, 42, moves=["E4", "F5", "D4"]))
    with pytest.raises(Refused, match="on light's topic|of 'light'"):
        light.merge(view_of(light, 43))
    assert light.moves == ["E4", "F6", "D4"]


def test_a_take_back_is_taken_only_when_agreed():
    dark, light = AgreedGame(START, "dark"), AgreedGame(START, "light")
    dark.add("E4", "dark")
    light.merge(view_of(dark, 1))
    with pytest.raises(Refused, match="not asked for"):      # light cuts back unasked
        dark.merge(view_of(light, 2, epoch=1, moves=[],
                           answer={"epoch": 0, "to": 0, "id": 1, "ok": True}))
    assert dark.moves == ["E4"]
    dark.ask_take_back()
    assert light.merge(view_of(dark, 3)) == [("asked", dark.ask)]
    light.answer_take_back(False)
    assert dark.merge(view_of(light, 4))[0][0] == "answered" and dark.ask is None
    dark.ask_take_back()
    light.merge(view_of(dark, 5))
    light.answer_take_back(True)
    assert light.moves == [] and light.epoch == 1 and light.undone == ["E4"]
    changes = dark.merge(view_of(light, 6))
    assert ("take_back", 1) in changes and dark.moves == [] and dark.epoch == 1
    assert light.merge(view_of(dark, 7, epoch=0, moves=["E4"])) == []   # from before: ignored


# --- two boards through a real broker -------------------------------------------------------

@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path / "broker")
    yield b
    b.stop()


def boards_on(broker, tmp_path, map_path=None):
    return {side: Serve(tmp_path / side, broker.url, map_path) for side in ("dark", "light")}


def stop(boards):
    for board in boards.values():
        board.stop()


GAMES = [("iago", None, 11), ("othello", ROOT / "hardware" / "boards" / "square8.json", 12),
         ("io", ROOT / "hardware" / "boards" / "square7.json", 13)]


@pytest.mark.parametrize("game,map_path,seed", GAMES, ids=[g[0] for g in GAMES])
def test_two_boards_play_a_whole_game_in_step_after_every_move(broker, tmp_path, game,
                                                               map_path, seed):
    boards = boards_on(broker, tmp_path, map_path)
    try:
        start_game(boards)
        assert boards["dark"].snap()["state"]["game"] == game
        played = play_to_the_end(boards, seed)     # in step after each (remote_harness.in_step)
        dark, light = (boards[s].snap() for s in ("dark", "light"))
        assert dark["state"]["outcome"] == light["state"]["outcome"] is not None
        assert dark["state"]["moves"] == light["state"]["moves"] == [m for m, _ in played]
        for board in boards.values():
            wait_for(lambda b=board: any("both boards show the same score" in n
                                         for n in b.notices()), what="the scores compared")
            assert board.notices("fault") == []
    finally:
        stop(boards)


def test_a_wrong_code_or_none_is_refused_and_nothing_changes(broker, tmp_path):
    boards = boards_on(broker, tmp_path)
    try:
        code = start_game(boards)
        digits = parse(code)
        typo = digits[:5] + str((int(digits[5]) + 1) % 10) + digits[6:]
        for text, status in [(typo, 400), ("", 400)]:
            reply = boards["light"].post("remote/join", {"code": text})
            assert not reply["ok"] and reply["status"] == status, reply
        third = Serve(tmp_path / "third", broker.url)
        try:
            reply = third.post("remote/join", {"code": new_code()})    # a code of no game
            assert not reply["ok"] and reply["status"] == 409 and "no game under" in \
                reply["error"]
            assert third.remote()["phase"] == "idle"
        finally:
            third.stop()
        assert boards["light"].remote()["code"] == code
    finally:
        stop(boards)


def test_take_back_by_agreement_refused_then_accepted_then_resigning(broker, tmp_path):
    """Light asks to take back its move: dark refuses, nothing changes; light asks again, dark
    accepts: both boards take the move back (the disk lifted, its flips undone by hand) and
    stay in step; then dark resigns, and both pages say light won. Bug: light's next move on
    the hex taken back (G6 with this seed) was taken for the move to take back, and its
    board took it back again: the game stuck."""
    boards = boards_on(broker, tmp_path)
    dark, light = boards["dark"], boards["light"]
    rng = random.Random(21)
    try:
        start_game(boards)
        for _ in range(4):
            play_move(boards, rng)
        moves = dark.remote()["game"]["moves"]
        assert light.post("remote/take-back")["ok"]
        wait_for(lambda: dark.remote()["game"]["their_ask"], what="the ask at dark's host")
        assert dark.post("remote/answer", {"accept": False})["ok"]
        wait_for(lambda: light.remote()["game"]["ask"] is None, what="the refusal at light's")
        assert any("light refused" in n or "refused the take-back" in n
                   for n in light.notices())
        assert in_step(dark, light) and light.remote()["game"]["moves"] == moves
        assert light.post("remote/take-back")["ok"]
        wait_for(lambda: dark.remote()["game"]["their_ask"], what="the second ask")
        assert dark.post("remote/answer", {"accept": True})["ok"]
        for board in boards.values():
            wait_for(lambda b=board: b.remote()["game"]["moves"] == moves[:-1],
                     what="the move taken back in the agreed game")
            mend(board)
        wait_for(lambda: in_step(dark, light), 30, "the boards in step after the take-back")
        assert dark.snap()["state"]["moves"] == moves[:-1]
        play_move(boards, rng)
        assert dark.post("remote/resign")["ok"]
        for board in boards.values():
            wait_for(lambda b=board: (b.remote()["game"]["outcome"] or {}).get("winner") ==
                     "light", what="light's win by resignation")
        assert light.post("remote/take-back")["ok"] is False     # the game is over
    finally:
        stop(boards)


def mend(board):
    """The players' hands after a take-back: the disk the board asks to remove is lifted
    (auto-flip turns back its flips)."""
    def mended():
        state = board.snap()["state"]
        for cell in state["extra"]:
            board.post("lift", {"cell": cell})
        return not state["extra"] and not state["flips_pending"]
    wait_for(mended, 20, "the taken-back disk removed")
