import pytest

from ..errors import UserError
from ..northbound.links import emulated_links
from .change import analyse, back_up_seen, events, pick_link
from .poller import Poll

NET = {"spec": "ring,3", "links": [[1, 2, 2, 1], [2, 2, 3, 1], [3, 2, 1, 1]]}
WANT = frozenset(emulated_links(NET))
LINK = [2, 2, 3, 1]
WITHOUT = frozenset(WANT - {((2, 2), (3, 1)), ((3, 1), (2, 2))})


def test_detection_is_the_first_poll_after_the_instant_that_shows_the_change():
    polls = [Poll(t, v) for t, v in [(0, WANT), (10, WANT), (20, WANT), (30, WITHOUT), (40, WITHOUT), (50, WANT)]]
    r = analyse(WANT, LINK, polls, down_ns=12, up_ns=41)
    assert r["discovered_before_change"]
    assert (r["down_detect_s"], r["down_previous_poll_s"]) == (18e-9, 8e-9)
    assert (r["up_detect_s"], r["up_previous_poll_s"]) == (9e-9, 0.0)
    assert back_up_seen(polls, LINK) and not back_up_seen(polls[:5], LINK)
    # during discovery the link is absent before it is first seen: that is not a change
    assert not back_up_seen([Poll(0, frozenset()), Poll(1, WITHOUT), Poll(2, WANT)], LINK)


def test_never_detected_or_never_discovered():
    polls = [Poll(0, WITHOUT), Poll(10, WITHOUT), Poll(20, WITHOUT)]
    r = analyse(WANT, LINK, polls, down_ns=5, up_ns=15)
    assert not r["discovered_before_change"] and r["up_detect_s"] is None


def test_link_choice_and_schedule():
    assert pick_link(NET, None) == [2, 2, 3, 1] and pick_link(NET, "1:1-3:2") == [3, 2, 1, 1]
    with pytest.raises(UserError):
        pick_link(NET, "1:9-2:1")
    assert events(LINK, 2, 3) == [{"at_ms": 2000, "link": LINK, "state": "down"}, {"at_ms": 5000, "link": LINK, "state": "up"}]
