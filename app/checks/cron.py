"""How often a CronJob schedule fires, read by cronsim rather than a parser of our own.

Kubernetes parses schedules with robfig/cron (standard five fields, the @hourly-style macros,
`?` for "any", @every <duration>, and a CRON_TZ= or TZ= prefix). cronsim evaluates the five
fields with the same day-of-month/day-of-week rule; the rest is translated here.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from cronsim import CronSim, CronSimError

_MACROS = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}
_EVERY = re.compile(r"^@every\s+((?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))+)$")
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)")
_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
# Runs in a window long enough to see every pattern of minutes, hours and weekdays.
START, WINDOW, MAX_RUNS = datetime(2025, 1, 1), timedelta(days=8), 2000


def shortest_interval(schedule: str) -> timedelta | None:
    """The shortest gap between two runs, or None when the schedule is not valid cron.

    A schedule that fires at most once in eight days gives the window itself.
    """
    text = " ".join(schedule.split())
    text = re.sub(r"^(?:CRON_)?TZ=\S+\s*", "", text)
    if every := _EVERY.match(text):
        seconds = sum(float(n) * _SECONDS[u] for n, u in _DURATION_PART.findall(every[1]))
        return timedelta(seconds=seconds) if seconds > 0 else None
    text = _MACROS.get(text, text)
    fields = text.split(" ")
    if len(fields) != 5:
        return None
    fields[2:5:2] = [f.replace("?", "*") for f in fields[2:5:2]]  # day of month, day of week
    try:
        runs = CronSim(" ".join(fields), START)
        shortest, previous = WINDOW, next(runs)
        for _, run in zip(range(MAX_RUNS), runs, strict=False):
            if run - previous > WINDOW or run - START > WINDOW:
                break
            shortest = min(shortest, run - previous)
            if shortest <= timedelta(minutes=1):
                break  # cron cannot fire more often than once a minute
            previous = run
    except (CronSimError, StopIteration, ValueError, OverflowError):
        return None
    return shortest
