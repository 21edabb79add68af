"""Log lines of the server: plain text or JSON lines, each with the id of its request.

Kept apart from app.observability so that `serve` can configure logging without importing
prometheus_client (which must see PROMETHEUS_MULTIPROC_DIR before its first import).
"""

import json
import logging
import time
from contextvars import ContextVar
from typing import Any

ACCESS_LOGGER = "incident_library.access"
request_id: ContextVar[str] = ContextVar("request_id", default="-")

ACCESS_FIELDS = ("client", "method", "path", "query", "route", "status", "bytes", "duration_ms")


class RequestIdFilter(logging.Filter):
    """Every record carries the id of the request it was logged in (or '-')."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = request_id.get()
        return True


class PlainFormatter(logging.Formatter):
    """`2026-12-01T19:40:00Z INFO 127.0.0.1 "GET /incidents" 200 5321 B 4.2 ms rid=…`"""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created))
        line = f"{stamp} {record.levelname} {record.getMessage()}"
        if record.name == ACCESS_LOGGER:
            line += f" {getattr(record, 'bytes', 0)} B {getattr(record, 'duration_ms', 0)} ms"
        rid = getattr(record, "request_id", "-")
        if rid != "-":
            line += f" rid={rid}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id, pid, access fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
            "pid": record.process,
        }
        for field in (*ACCESS_FIELDS, *getattr(record, "fields", ())):
            if hasattr(record, field):
                data[field] = getattr(record, field)
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


def log_config(log_format: str, level: str) -> dict[str, Any]:
    """The logging dictConfig for the server and its workers (uvicorn applies it in each)."""
    formatter = "json" if log_format == "json" else "plain"
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": formatter,
        "filters": ["request_id"],
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {
            "plain": {"()": PlainFormatter},
            "json": {"()": JsonFormatter},
        },
        "handlers": {"default": handler},
        "loggers": {
            "incident_library": {
                "handlers": ["default"],
                "level": level.upper(),
                "propagate": False,
            },
            "uvicorn": {"handlers": ["default"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"level": "WARNING"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
