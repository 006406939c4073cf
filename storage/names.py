"""Players' names, shortened for storage and display without breaking a character apart.

A name is kept to ``MAX_NAME_LENGTH`` code points, but what a reader sees as one character
(an extended grapheme cluster: a family emoji joined by ZWJs, a flag's two regional
indicators, a letter with combining accents, a skin tone) may span several: a plain slice
could leave half a family or half a flag. The cut is made at the last cluster boundary that
fits, found with the ``regex`` package's ``\\X`` (Unicode's segmentation rules, UAX #29).
"""

from __future__ import annotations

import regex

MAX_NAME_LENGTH = 64
_CLUSTER = regex.compile(r"\X")


def shorten_name(name: str, limit: int = MAX_NAME_LENGTH) -> str:
    """``name`` itself if it fits in ``limit`` code points, else its longest prefix of whole
    grapheme clusters that does (possibly empty, when the first cluster alone is longer)."""
    if len(name) <= limit:
        return name
    end = 0
    for match in _CLUSTER.finditer(name):
        if match.end() > limit:
            break
        end = match.end()
    return name[:end]
