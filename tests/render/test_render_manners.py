"""The final picture's banner leaves the stacks' counts in view, and a single game is
headed as one."""

from __future__ import annotations

from dataclasses import replace

from PIL import ImageChops

from render import board_image, samples
from render.geometry import STACK_VISIBLE, layout_for
from render.texts import match_line

LAY = layout_for(1280)


def test_the_result_banner_stays_between_the_stacks() -> None:
    final = samples.classic_final()
    three_lines = replace(
        final, banner=("Tempo scaduto per Giulia", "Marco vince 3 punti", "Marco 7 – 1 Giulia")
    )
    for view in (final, three_lines):
        box = ImageChops.difference(
            board_image(view), board_image(replace(view, banner=()))
        ).getbbox()
        assert box is not None
        # Below the fifth checker of a top stack (where a count is written), above the
        # fifth of a bottom stack.
        assert box[1] >= LAY.field_top + STACK_VISIBLE * LAY.checker
        assert box[3] <= LAY.field_bottom - STACK_VISIBLE * LAY.checker


def test_a_single_game_is_headed_partita_singola() -> None:
    assert match_line("classic", 1, False) == "Partita singola"
    assert match_line("long", 1, False) == "Partita singola"
    assert match_line("classic", 7, True) == "Match a 7 punti · Crawford"
    assert match_line("long", 3, False) == "Serie a 3 punti"
