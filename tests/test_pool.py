"""app/pool.py: results in the order of the tasks, whichever worker finishes first; a failure in a
worker reaches the caller instead of hanging it."""

import os
import time

import pytest

from app.pool import OrderedPool


def _nothing() -> None:
    pass


def _slow_when_even(number: int) -> int:
    time.sleep(0.05 if number % 2 == 0 else 0)
    return number * number


def _fails_at_three(number: int) -> int:
    if number == 3:
        raise ValueError("three")
    return number


def _dies_at_two(number: int) -> int:
    if number == 2:
        os._exit(3)
    return number


def test_results_come_in_the_order_of_the_tasks() -> None:
    with OrderedPool(2, _slow_when_even, _nothing, ()) as pool:
        assert list(pool.imap(range(12), ahead=5)) == [n * n for n in range(12)]


def test_a_task_that_raises_raises_in_the_caller_after_the_results_before_it() -> None:
    with OrderedPool(2, _fails_at_three, _nothing, ()) as pool:
        results = pool.imap(range(10), ahead=4)
        assert [next(results) for _ in range(3)] == [0, 1, 2]
        with pytest.raises(ValueError, match="three"):
            next(results)


def test_a_worker_that_ends_is_reported_not_waited_for() -> None:
    with OrderedPool(2, _dies_at_two, _nothing, ()) as pool:
        with pytest.raises(RuntimeError, match="exit code 3"):
            list(pool.imap(range(10), ahead=4))
