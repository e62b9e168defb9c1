"""The autopilot's plan on its own: who acts for a seat, and when (pure functions, no server)."""

from __future__ import annotations

import pytest

from engine import Game
from server import autopilot as ap
from server import ready, views
from server.rooms import make_settings

T0 = 1_000.0


def room_with(kinds: list[str], game: Game | None = None, **settings) -> dict:
    base = {"turn_timer": None, "bot_delay": 1.0, "seed": 1}
    base.update(settings)
    made = make_settings("standard", {}, base.pop("turn_timer"), base.pop("bot_delay"), base.pop("seed"),
                         **base)
    room = {"code": "TEST22", "status": "playing", "host": 0, "settings": made,
            "seats": [{"kind": k, "nickname": None, "token": None} for k in kinds], "live": ap.new_live(T0)}
    if game is not None:
        ap.stamp(room, game, [], T0)
    return room


def game_at_deal_over() -> Game:
    game = Game.new(3)
    while game.phase != "deal_over":
        seat = game.pending_seats()[0]
        game.apply(seat, game.legal_actions(seat)[-1 if game.top_play() is not None else 0])
    return game


def test_a_bot_acts_after_its_delay_and_a_person_is_waited_for() -> None:
    game = Game.new(1)  # seat 0 leads
    assert ap.plan(room_with(["bot", "human", "human", "human"], game), game) == ap.Step(T0 + 1.0, 0, ap.BOT)
    assert ap.plan(room_with(["human", "bot", "bot", "bot"], game), game) is None


def test_auto_play_away_and_timer_act_for_a_person() -> None:
    game = Game.new(1)
    room = room_with(["human", "bot", "bot", "bot"], game)
    room["live"]["autoplay"][0] = 0.5
    assert ap.plan(room, game) == ap.Step(T0 + 0.5, 0, ap.AUTOPLAY)
    assert ap.auto_marks(room) == ["player", None, None, None]
    room["live"]["autoplay"][0] = None
    room["live"]["away"][0] = True  # dropped, grace over: our bot plays at the bots' pace
    assert ap.plan(room, game) == ap.Step(T0 + 1.0, 0, ap.AWAY)
    assert ap.auto_marks(room) == ["dropout", None, None, None]
    room["live"]["left"][0] = True  # pressed Leave mid-match: the same bot, said differently
    assert ap.plan(room, game) == ap.Step(T0 + 1.0, 0, ap.AWAY)
    assert ap.auto_marks(room) == ["left", None, None, None]
    del room["live"]["left"]  # a room stored before Leave was told apart
    assert ap.auto_marks(room) == ["dropout", None, None, None]
    timed = room_with(["human", "bot", "bot", "bot"], game, turn_timer=30.0)
    assert timed["live"]["deadlines"] == [T0 + 30.0, None, None, None]
    assert ap.plan(timed, game) == ap.Step(T0 + 30.0, 0, ap.TIMER)


def test_a_dropped_player_goes_on_auto_after_the_grace_period_even_off_turn() -> None:
    game = Game.new(1)
    room = room_with(["human", "human", "bot", "bot"], game, grace=15.0)
    room["live"]["gone"][1] = T0 + 2.0  # seat 1 is not the seat to play
    assert ap.plan(room, game) == ap.Step(T0 + 17.0, 1, ap.GRACE)
    room["live"]["away"][1] = True
    assert ap.plan(room, game) is None  # seat 0, a person, is to play


def test_the_table_is_told_when_the_bot_takes_over_from_a_dropped_player() -> None:
    game = Game.new(1)
    room = room_with(["human", "human", "bot", "ai"], game, grace=15.0)
    assert ap.takeover_times(room) == [None] * 4
    room["live"]["gone"][1] = T0 + 2.0
    room["live"]["gone"][3] = T0 + 2.0  # an external AI has no grace period: our bot plays its turns
    assert ap.takeover_times(room) == [None, T0 + 17.0, None, None]
    assert views.view_for(room, game, 0)["takeover"] == [None, T0 + 17.0, None, None]
    room["live"]["away"][1] = True  # the grace period is over: the bot plays, nothing more to wait for
    assert ap.takeover_times(room) == [None] * 4


def test_an_external_ai_gets_its_time_unless_it_is_not_connected() -> None:
    game = Game.new(1)
    room = room_with(["ai", "human", "bot", "bot"], game, ai_timeout=10.0)
    assert ap.plan(room, game) == ap.Step(T0 + 10.0, 0, ap.AI_FALLBACK)
    room["live"]["gone"][0] = T0
    assert ap.plan(room, game) == ap.Step(T0 + 1.0, 0, ap.AI_FALLBACK)


def test_return_deadlines_are_kept_while_still_owed() -> None:
    game = game_at_deal_over()
    game.apply(0, {"type": "next_deal"})
    assert game.phase == "return"
    receivers = game.pending_seats()
    room = room_with(["human"] * 4, turn_timer=30.0)  # return timer: 20 s by default
    ap.stamp(room, game, [], T0)
    assert [room["live"]["deadlines"][s] for s in receivers] == [T0 + 20.0] * len(receivers)
    if len(receivers) == 2:  # double tribute: the other receiver keeps its deadline after one returns
        first, second = receivers
        game.apply(first, game.legal_actions(first)[0])
        ap.stamp(room, game, receivers, T0 + 5)
        assert room["live"]["deadlines"][second] == T0 + 20.0 and room["live"]["deadlines"][first] is None


def test_who_starts_the_next_deal() -> None:
    game = game_at_deal_over()
    assert ap.plan(room_with(["bot", "ai", "bot", "ai"], game), game).why == ap.NEXT_DEAL  # research table
    people = room_with(["human", "bot", "human", "bot"], game)
    assert ap.plan(people, game) is None  # the people press "next deal" when they have seen the result
    people["live"]["autoplay"][0] = 2.0
    assert ap.plan(people, game) is None  # seat 2 plays by hand
    people["live"]["autoplay"][2] = 1.0
    # everyone here is on auto-play: the next deal once the result was up a few seconds
    assert ap.plan(people, game) == ap.Step(T0 + ready.RESULT_SHOWN, 2, ap.NEXT_DEAL)
    people["live"]["autoplay"] = [10.0, None, 8.0, None]
    assert ap.plan(people, game) == ap.Step(T0 + 8.0, 2, ap.NEXT_DEAL)  # or after the faster of slow paces
    gone = room_with(["human", "bot", "human", "bot"], game)
    gone["live"]["gone"] = [T0 - 30, None, T0 - 30, None]
    gone["live"]["away"] = [True, False, True, False]
    assert ap.plan(gone, game) is None  # everyone left: the table waits for them
    ais = room_with(["human", "ai", "bot", "ai"], game)  # ... unless an external AI is still there:
    ais["live"]["gone"][0] = T0 - 30
    ais["live"]["away"][0] = True
    assert ap.plan(ais, game) == ap.Step(T0 + ais["settings"]["bot_delay"], 2, ap.NEXT_DEAL)  # it plays on
    timed = room_with(["human", "bot", "human", "bot"], game, turn_timer=20.0)
    assert ap.plan(timed, game) is None  # a timer alone does not hurry anyone off the result screen
    assert ap.next_deal_at(timed, game) is None  # nothing to count down on the result
    timed["settings"]["auto_next"] = True  # the room option: the timer starts the next deal, ready or not
    assert ap.plan(timed, game) == ap.Step(T0 + 20.0, 0, ap.NEXT_DEAL)
    assert ap.next_deal_at(timed, game) == T0 + 20.0
    assert views.view_for(timed, game, 2)["next_deal_at"] == T0 + 20.0
    timed["live"]["gone"] = [T0, None, T0, None]  # everyone left: no countdown to a deal that waits
    timed["live"]["away"] = [True, False, True, False]
    assert ap.next_deal_at(timed, game) is None
    assert ap.next_deal_at(timed, Game.new(1)) is None  # only at a result


def test_the_ready_check_waits_for_every_person_here() -> None:
    game = game_at_deal_over()
    room = room_with(["human", "human", "human", "bot"], game)
    assert ready.marks(room, game.phase) == [False, False, False, True]  # bots never hold the table up
    assert not ready.press(room, 0, game.phase)
    assert ap.plan(room, game) is None and ready.marks(room, game.phase) == [True, False, False, True]
    room["live"]["away"][1] = True  # seat 1 dropped out: away seats count as ready
    room["live"]["autoplay"][2] = 5.0  # seat 2 is on auto-play: ready after its interval
    assert ap.plan(room, game) == ap.Step(T0 + 5.0, 2, ap.NEXT_DEAL)
    room["live"]["autoplay"][2] = None
    assert ready.press(room, 2, game.phase)  # the last person here: nobody is waited for
    assert ap.plan(room, game) == ap.Step(T0, 0, ap.NEXT_DEAL)
    ap.stamp(room, game, [], T0 + 5)  # the next deal began: its result starts from nobody ready
    assert ready.pressed(room) == [False] * 4


def test_a_rematch_is_asked_for_and_never_made_for_anyone() -> None:
    game = game_at_deal_over()
    game.phase = "match_over"
    room = room_with(["human", "human", "bot", "bot"], game)
    room["live"]["autoplay"] = [1.0, 1.0, None, None]
    assert ap.plan(room, game) is None  # auto-play does not ask for a rematch
    assert ready.marks(room, "match_over") == [False, False, True, True]
    assert not ready.press(room, 0, "match_over")
    assert ap.plan(room, game) is None  # seat 1 has not asked
    room["live"]["away"][1] = True  # ... and then left: those who asked get their rematch
    assert ap.plan(room, game) == ap.Step(T0, 0, ap.REMATCH)
    assert ready.marks(room, "play") is None


def test_nothing_to_do_in_the_lobby_or_after_the_match() -> None:
    game = Game.new(1)
    room = room_with(["bot"] * 4, game)
    room["status"] = "lobby"
    assert ap.plan(room, game) is None
    assert ap.plan(room_with(["bot"] * 4), None) is None


def test_a_table_whose_people_all_left_waits_for_them_and_goes_on_where_it_stopped() -> None:
    from server import changes as C

    game = Game.new(1)  # seat 0, a person, leads
    room = room_with(["human", "human", "bot", "bot"], game, turn_timer=20.0, grace=5.0)
    room["live"]["gone"][1] = T0 + 1.0
    assert ap.plan(room, game) == ap.Step(T0 + 6.0, 1, ap.GRACE)  # someone is still here
    assert views.view_for(room, game, None)["paused"] is False
    room["live"]["gone"][0] = T0 + 2.0  # the last person leaves, 18 s before seat 0's timer runs out
    assert ap.unattended(room)
    assert views.view_for(room, game, None)["paused"] is True  # a watcher is told why nothing moves
    assert ap.plan(room, game) == ap.Step(T0 + 6.0, 1, ap.GRACE)  # only the grace periods run out ...
    room["live"]["away"] = [True, True, False, False]
    assert ap.plan(room, game) is None  # ... then nothing: no timer, no bot, no takeover
    done = game_at_deal_over()
    timed = room_with(["human", "bot", "human", "bot"], done, turn_timer=20.0)
    timed["live"]["gone"] = [T0, None, T0, None]
    timed["live"]["away"] = [True, False, True, False]
    assert ap.plan(timed, done) is None  # a timed table does not deal again for nobody

    C.seat_back(room, 0, T0 + 100.0)  # seat 0 is back after the table waited 98 s
    assert not ap.unattended(room)
    assert room["live"]["changed"] == T0 + 98.0
    assert ap.plan(room, game) == ap.Step(T0 + 118.0, 0, ap.TIMER)  # the 18 s it had left


def test_a_table_whose_people_went_with_the_server_stands_still_grace_periods_too() -> None:
    from server import changes as C

    game = Game.new(1)  # seat 0, a person, leads
    room = room_with(["human", "human", "ai", "bot"], game, turn_timer=20.0, grace=5.0)
    room["live"]["gone"][1] = T0 + 1.0  # seat 1 dropped on its own before the server went
    C.server_gone(room, [0], T0 + 2.0, T0 + 12.0)  # the process died at T0+2, buried at T0+12
    assert not ap.halted(room) and room["live"]["gone"][0] == T0 + 12.0  # the AI is still connected
    assert ap.plan(room, game) == ap.Step(T0 + 6.0, 1, ap.GRACE)
    C.server_gone(room, [2], T0 + 2.0, T0 + 12.0)  # the last one: the room halts from the death
    assert ap.halted(room) and room["live"]["gone"] == [T0 + 2.0, T0 + 1.0, T0 + 2.0, None]
    assert ap.plan(room, game) is None  # no grace period, no timer runs out
    assert ap.takeover_times(room) == [None] * 4
    assert views.view_for(room, game, None)["paused"] is True

    C.seat_back(room, 0, T0 + 302.0)  # five minutes later, seat 0 is back first
    live = room["live"]
    assert not ap.halted(room) and live["changed"] == T0 + 300.0
    assert live["deadlines"][0] == T0 + 320.0  # the 18 s it had left
    assert live["gone"] == [None, T0 + 301.0, T0 + 302.0, None]  # grace: 4 s left for 1, all 5 s for 2
    assert ap.plan(room, game) == ap.Step(T0 + 306.0, 1, ap.GRACE)
    assert ap.takeover_times(room)[1] == T0 + 306.0

    fresh = room_with(["human", "bot", "bot", "bot"], game, turn_timer=20.0, grace=5.0)
    C.server_gone(fresh, [0], T0 + 2.0, T0 + 3.0)
    C.join(fresh, "Newcomer", 1, "hash", T0 + 50.0)  # someone takes a bot's seat: the table goes on
    assert not ap.halted(fresh) and fresh["live"]["gone"][0] == T0 + 50.0


def test_a_dead_server_s_seats_go_in_one_change_and_the_halt_starts_no_earlier_than_the_last_move() -> None:
    """Marked one commit at a time, a restarted server's burial let the timer that ran out during the
    outage play for the seat marked last (each commit arms the room's due step). And a move the dead
    process made after its last heartbeat means it was alive then: the outage starts there."""
    from server import changes as C

    game = Game.new(1)  # seat 0 leads
    room = room_with(["human"] * 4, game, turn_timer=10.0, grace=5.0)
    ap.stamp(room, game, [], T0 + 5.0)  # a move at T0+5; the last heartbeat was at T0+4.5
    done = C.server_gone(room, [0, 1, 2, 3], T0 + 4.5, T0 + 30.0)  # buried at T0+30: the timer is overdue
    assert done.record["seats"] == [0, 1, 2, 3]
    assert ap.halted(room) and room["live"]["halt"] == T0 + 5.0
    assert room["live"]["gone"] == [T0 + 5.0] * 4 and ap.plan(room, game) is None
    C.seat_back(room, 0, T0 + 60.0)
    assert room["live"]["deadlines"][0] == T0 + 70.0  # the whole 10 s it had at the move
    with pytest.raises(C.NothingToDo):  # gone already: nothing to record
        C.server_gone(room, [1, 2], T0 + 4.5, T0 + 61.0)


def test_a_redis_outage_is_made_good_once_on_the_clocks_set_before_it() -> None:
    from server import changes as C

    game = Game.new(1)  # seat 0 leads
    room = room_with(["human", "human", "bot", "bot"], game, turn_timer=10.0, grace=5.0)  # stamped at T0
    room["live"]["gone"][1] = T0 + 1.0  # dropped before Redis went
    outages = [(T0 + 2.0, T0 + 32.0)]
    C.outages_made_good(room, outages)
    live = room["live"]
    assert live["deadlines"][0] == T0 + 40.0 and live["changed"] == T0 + 30.0 and live["calm"] == T0 + 32.0
    assert live["gone"][1] == T0 + 31.0
    with pytest.raises(C.NothingToDo):  # once, whichever process comes second with its own view of it
        C.outages_made_good(room, [(T0 + 2.5, T0 + 32.5)])
    fresh = room_with(["human", "human", "bot", "bot"], game, turn_timer=10.0)
    fresh["live"]["gone"][1] = T0 + 33.0  # dropped during the outage, noted once Redis was back
    C.outages_made_good(fresh, outages)
    assert fresh["live"]["gone"][1] == T0 + 33.0  # that grace period is whole already
    moved_on = room_with(["human", "human", "bot", "bot"], game, turn_timer=10.0)
    ap.stamp(moved_on, game, [], T0 + 40.0)  # someone played after the outage: the clocks are new
    with pytest.raises(C.NothingToDo):
        C.outages_made_good(moved_on, outages)


def test_a_table_goes_on_while_someone_is_connected() -> None:
    game = Game.new(1)
    room = room_with(["human", "ai", "bot", "bot"], game, turn_timer=20.0)
    room["live"]["gone"][0] = T0
    room["live"]["away"][0] = True
    assert not ap.unattended(room)  # the external AI is still at the table
    assert ap.plan(room, game) == ap.Step(T0 + 1.0, 0, ap.AWAY)
    bots = room_with(["bot", "bot", "bot", "bot"], game)
    assert not ap.unattended(bots)  # no people to wait for
    assert ap.plan(bots, game) == ap.Step(T0 + 1.0, 0, ap.BOT)


def test_the_second_timeout_in_a_row_puts_a_connected_player_on_auto_play() -> None:
    from server import changes
    from server.rooms import save_game

    game = Game.new(1)  # seat 0 leads
    room = room_with(["human", "bot", "human", "bot"], game, turn_timer=20.0)
    assert not ap.timed_out(room, 0) and room["live"]["autoplay"][0] is None
    assert ap.timed_out(room, 0) and room["live"]["autoplay"][0] == ap.TIMEOUT_AUTOPLAY_INTERVAL
    assert ap.auto_marks(room)[0] == "player" and room["live"]["timeouts"][0] == 0
    assert not ap.timed_out(room, 0)  # already on auto-play: nothing to count
    # a move of the player's own in between: the next timeout is the first again
    room["live"]["autoplay"][0] = None
    assert not ap.timed_out(room, 0) and room["live"]["timeouts"][0] == 1
    save_game(room, game)
    changes.game_action(room, 0, game.legal_actions(0)[0], "human")
    assert room["live"]["timeouts"][0] == 0 and not ap.timed_out(room, 0)
    # and so is turning auto-play on or off
    changes.set_autoplay(room, 0, None)
    assert room["live"]["timeouts"][0] == 0
    # a dropped player's timeouts are the grace period's business (the seat is theirs again on return)
    room["live"]["gone"][0] = T0
    assert not ap.timed_out(room, 0) and not ap.timed_out(room, 0) and room["live"]["autoplay"][0] is None
    del room["live"]["timeouts"]  # a room stored before timeouts were counted
    ap.acted(room, 2)
    assert not ap.timed_out(room, 2) and room["live"]["timeouts"] == [0, 0, 1, 0]
