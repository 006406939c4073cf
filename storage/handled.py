"""Which Telegram updates were already handled: one bit per update id, in shared bitmaps.

Telegram delivers each update at least once (a webhook request retried after a slow or failed
answer, a poller that died before confirming its offset, a load balancer replaying a
request), so every update is claimed before it is handled, and only the first claimer, in
whatever worker or process, handles it.

Update ids are one increasing sequence per bot ("identifiers start from a certain positive
number and increase sequentially"; after a week without updates the next one may be chosen at
random). So the handled ones are remembered as bits of bitmaps of ``BUCKET_BITS`` consecutive
ids: ``SETBIT`` answers the bit's previous value, which makes the claim atomic in a single
command, and a full bucket costs ``BUCKET_BITS / 8`` bytes plus one key, i.e. about an
eighth of a byte per update instead of a key of its own per update (85 bytes).

A bucket expires ``ttl`` after the *last* update claimed in it (the expiry is renewed by every
claim), so every update is remembered for at least ``ttl``: long enough for any redelivery,
since Telegram keeps an unconfirmed update for 24 hours at most. Each bucket is a key with a
hash tag of its own, so buckets spread over a cluster's slots; a claim touches one key.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterPipeline

#: Update ids per bitmap: 1 KiB of bits, about one minute of a busy bot's updates.
BUCKET_BITS = 8192


@dataclass(frozen=True, slots=True)
class HandledUpdates:
    """Claims of update ids of one key namespace (``prefix``), per bot."""

    prefix: str

    def bucket_key(self, bot_id: int, update_id: int) -> str:
        """The bitmap holding ``update_id``'s bit; the hash tag names the bucket alone."""
        return f"{self.prefix}:handled:{{{bot_id}:{update_id // BUCKET_BITS}}}"

    @staticmethod
    def bit(update_id: int) -> int:
        return update_id % BUCKET_BITS

    def queue_claim(
        self,
        pipe: aioredis.client.Pipeline | ClusterPipeline,
        bot_id: int,
        update_id: int,
        ttl_ms: int,
    ) -> None:
        """Add the claim's two commands to ``pipe``: SETBIT (its reply is 0 for the first
        claimer, 1 for every later one) and the renewed expiry of the bucket."""
        key = self.bucket_key(bot_id, update_id)
        pipe.setbit(key, self.bit(update_id), 1)
        pipe.pexpire(key, ttl_ms)
