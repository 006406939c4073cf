"""Caches that several threads fill at once: the renderer's warm-up and the first boards."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def one_at_a_time(fn: F) -> F:
    """Let one thread build a value of the cached ``fn`` while the others asking for the same
    arguments wait for it, instead of building it again: the warm-up (in a thread) and the
    first boards (drawn in other threads) meet there. Per argument tuple, so a value that is
    ready, or another being built, is not held up. Put it over ``functools.lru_cache``."""
    guard = threading.Lock()
    locks: dict[Any, threading.Lock] = {}

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        key = (args, tuple(sorted(kwargs.items())))
        with guard:
            lock = locks.setdefault(key, threading.Lock())
        with lock:
            return fn(*args, **kwargs)

    for name in ("cache_clear", "cache_info"):  # lru_cache's, kept reachable
        if hasattr(fn, name):
            setattr(wrapper, name, getattr(fn, name))
    return wrapper  # type: ignore[return-value]
