"""The players' clock: deadlines are stored as epoch seconds and shown in Italy's time.

Tavola's players are Italian, so a deadline reads as the wall clock in Rome (summer time
included, through the IANA database that ``zoneinfo`` reads). A system without that
database (a slim container image without tzdata) falls back to Central European Time,
wrong by an hour in summer rather than unreadable.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

log = logging.getLogger(__name__)

ZONE_NAME = "Europe/Rome"


def _zone() -> tzinfo:
    try:
        return ZoneInfo(ZONE_NAME)
    except ZoneInfoNotFoundError:
        log.warning("no time zone database: deadlines are shown in UTC+1")
        return timezone(timedelta(hours=1), "CET")


ZONE = _zone()


def local(at: float) -> datetime:
    """An epoch time as the wall clock in Italy shows it."""
    return datetime.fromtimestamp(at, ZONE)
