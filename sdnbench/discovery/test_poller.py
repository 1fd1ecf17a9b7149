from .poller import Poll, judge

WANT = frozenset({((1, 1), (2, 1)), ((2, 1), (1, 1)), ((2, 2), (3, 1)), ((3, 1), (2, 2))})
PART = frozenset(list(WANT)[:2])


def test_complete_at_the_matching_poll_with_the_poll_before():
    v = judge(WANT, [Poll(0, frozenset()), Poll(3, PART), Poll(6, WANT)])
    assert (v.state, v.at_ns, v.before_ns, v.seen, v.want) == ("complete", 6, 3, 4, 4)


def test_three_identical_partial_answers_are_incomplete_and_name_what_is_missing():
    polls = [Poll(0, frozenset())] + [Poll(t, frozenset({((1, 1), (2, 1)), ((2, 1), (1, 1))})) for t in (3, 6)]
    assert judge(WANT, polls).state == "running"
    v = judge(WANT, polls + [Poll(9, polls[-1].links)])
    assert (v.state, v.at_ns, v.seen) == ("incomplete", 9, 2)
    assert v.missing_names() == ["2:2-3:1"]


def test_empty_views_and_errors_do_not_stop_it_but_the_deadline_does():
    polls = [Poll(t, frozenset()) for t in (0, 3, 6, 9)] + [Poll(12, None, "unreachable")]
    assert judge(WANT, polls, deadline_ns=20).state == "running"
    v = judge(WANT, polls + [Poll(21, None, "unreachable")], deadline_ns=20)
    assert v.state == "timeout" and v.seen == 0 and len(v.missing) == 4
