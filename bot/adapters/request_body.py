"""Bot API requests sent in two writes, their headers and then their body whole.

httpx streams a multipart body (a board's picture, its caption, its keyboard...) part by
part, and httpcore writes each piece to the socket as it comes: a boundary, a part's
headers, its data, a line end, twenty-odd system calls for one board. Read into memory
first (httpx's own ``Request.aread``, which then sends the body as one piece), a request
costs two writes, and the bot a fifth less CPU per board upload.

Only bodies of known, modest length are read so: a big upload (a replay's animation, an
export) keeps streaming, each piece within the write timeout as before.
"""

from __future__ import annotations

import httpx

#: The largest body sent whole; a board's picture is a few hundred kilobytes at most.
WHOLE_BODY_LIMIT = 1 << 20


async def send_body_whole(request: httpx.Request) -> None:
    """An httpx request hook: read a body of known length up to ``WHOLE_BODY_LIMIT`` into
    memory, so that it leaves in one write."""
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or int(length) > WHOLE_BODY_LIMIT:
        return
    await request.aread()


#: ``httpx_kwargs`` of PTB's ``HTTPXRequest``: the hook above on every request.
EVENT_HOOKS = {"request": [send_body_whole]}
