"""The replays and match files of one application: the chats with one being built, and the
files sent lately, so that a double tap does not build or send the same file twice."""

from __future__ import annotations

import time
from collections import OrderedDict

#: The same file asked again within this many seconds is pointed to, not sent again (a
#: double tap, two players pressing together); later it is re-sent by its Telegram file id,
#: without building it again.
RECENT_SECONDS = 60.0
SentKey = tuple[int, str, int, int]  # chat, what, game id, game number (export: games)


class FileJobs:
    """Per application: the chats with a replay or export being built, and the files sent
    lately (when, and their Telegram file ids; bounded)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self.busy: set[int] = set()
        self._sent: OrderedDict[SentKey, tuple[float, str | None]] = OrderedDict()

    def recent(self, chat_id: int, what: str, game_id: int, number: int | None) -> bool:
        """Was such a file (any number of games when ``number`` is None) sent just now?"""
        now = time.monotonic()
        return any(
            key[:3] == (chat_id, what, game_id)
            and number in (None, key[3])
            and now - when < RECENT_SECONDS
            for key, (when, _) in self._sent.items()
        )

    def check(self, key: SentKey) -> tuple[bool, str | None]:
        """(sent too recently to send again, the file id to send it again with)."""
        found = self._sent.get(key)
        if found is None:
            return False, None
        when, file_id = found
        return time.monotonic() - when < RECENT_SECONDS, file_id

    def remember(self, key: SentKey, file_id: str | None) -> None:
        self._sent[key] = (time.monotonic(), file_id)
        self._sent.move_to_end(key)
        while len(self._sent) > self.size:
            self._sent.popitem(last=False)
