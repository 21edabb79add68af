"""Worker processes that apply a function to a stream of tasks, results handed back in order.

What `build` uses instead of multiprocessing.Pool. A Pool answers through three threads of the
calling process; measured on the benchmark's build, they took 3-4 s of its CPU: the one that
watches the workers wakes whenever a result waits to be read, so it spun while each batch's
~16 MB came through, and all three took the GIL from the thread that writes the database. Here
the caller has no threads: tasks (small: where to read, not what) go down one pipe, any idle
worker takes the next, and results come back on a queue whose writing thread is in the worker,
so a worker never waits for the caller to read. The caller reads them when it wants the next.
"""

import multiprocessing
import pickle
import queue
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from multiprocessing.queues import Queue, SimpleQueue
from types import TracebackType
from typing import Any, Generic, TypeVar

Task = TypeVar("Task")
Result = TypeVar("Result")


class OrderedPool(Generic[Task, Result]):
    """`processes` forked workers, each set up by initializer(*initargs), applying `function`.

    Fork before the caller starts threads or opens databases: the workers are copies of it.
    """

    def __init__(
        self,
        processes: int,
        function: Callable[[Task], Result],
        initializer: Callable[..., None],
        initargs: tuple[Any, ...],
    ) -> None:
        context = multiprocessing.get_context("fork")
        self.tasks: SimpleQueue[tuple[int, Task]] = context.SimpleQueue()
        self.results: Queue[tuple[int, bool, Any]] = context.Queue()
        self.processes = [
            context.Process(
                target=_serve,
                args=(self.tasks, self.results, function, initializer, initargs),
                daemon=True,
            )
            for _ in range(processes)
        ]
        for process in self.processes:
            process.start()

    def imap(self, tasks: Iterable[Task], ahead: int) -> Iterator[Result]:
        """function(task) for each task, in order; at most `ahead` tasks handed out and not yet
        returned (what the workers hold in memory stays bounded).

        :raises: what `function` raised, when it raised; RuntimeError when a worker ended.
        """
        remaining = iter(tasks)
        handed = 0
        for task in islice(remaining, ahead):
            self.tasks.put((handed, task))
            handed += 1
        done: dict[int, tuple[bool, Any]] = {}
        returned = 0
        while returned < handed:
            while returned not in done:
                number, ok, value = self._next()
                done[number] = (ok, value)
            ok, value = done.pop(returned)
            returned += 1
            if not ok:
                raise value
            for task in islice(remaining, 1):
                self.tasks.put((handed, task))
                handed += 1
            yield value

    def close(self) -> None:
        """End the workers, whatever they are doing."""
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.join()
        self.results.close()
        self.tasks.close()

    def __enter__(self) -> "OrderedPool[Task, Result]":
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def _next(self) -> tuple[int, bool, Any]:
        while True:
            try:
                return self.results.get(timeout=1)
            except queue.Empty:
                for process in self.processes:
                    if process.exitcode is not None:
                        raise RuntimeError(
                            f"a worker process ended (exit code {process.exitcode})"
                        ) from None


def _serve(
    tasks: "SimpleQueue[tuple[int, Any]]",
    results: "Queue[tuple[int, bool, Any]]",
    function: Callable[[Any], Any],
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    """A worker, until close() ends it: tasks in; (number, True, result) or (number, False,
    error) out."""
    initializer(*initargs)
    while True:
        number, argument = tasks.get()
        try:
            results.put((number, True, function(argument)))
        except Exception as error:
            results.put((number, False, _picklable(error)))


def _picklable(error: Exception) -> Exception:
    """The error, or one that says what it was when it cannot cross to the caller."""
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
