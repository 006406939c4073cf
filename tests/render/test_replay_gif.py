"""The replay GIF: every frame decodes to exactly the board drawn for it, with the timing."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageChops

from render import BoardView, ReplayFrame, replay_gif
from render.replay import LAST_MS, REPLAY_WIDTH, _gif_palette, frame_image
from render.theme import DEFAULT_THEME, get_theme


def _frames() -> list[ReplayFrame]:
    start = BoardView.start("classic", names=("Anna", "Bruno"), pips=(167, 167))
    white = list(start.white)
    white[24], white[18] = 1, 1  # 24/18
    moved = dataclasses.replace(
        start, white=tuple(white), pips=(161, 167), dice=((6, False), (1, True))
    )
    black = list(moved.black)
    black[13], black[8] = 4, 4  # 13/8
    last = dataclasses.replace(moved, black=tuple(black), turn=None, banner=("Fine",))
    return [
        ReplayFrame(start, "Partita 1"),
        ReplayFrame(moved, "1. Anna 6-1: 24/18"),
        ReplayFrame(last, "2. Bruno 5-3: 13/8", orientation="black"),
    ]


def test_every_frame_decodes_to_its_board() -> None:
    frames = _frames()
    gif = Image.open(io.BytesIO(replay_gif(frames)))
    assert gif.n_frames == len(frames)
    theme = get_theme(DEFAULT_THEME)
    palette = _gif_palette(theme, REPLAY_WIDTH)
    for i, frame in enumerate(frames):
        gif.seek(i)
        expected = frame_image(frame, REPLAY_WIDTH, theme).quantize(
            palette=palette, dither=Image.Dither.NONE
        )
        assert ImageChops.difference(gif.convert("RGB"), expected.convert("RGB")).getbbox() is None


def test_size_timing_and_loop() -> None:
    gif = Image.open(io.BytesIO(replay_gif(_frames(), frame_ms=700)))
    assert gif.width == REPLAY_WIDTH
    assert gif.info["loop"] == 0
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations[1] == 700
    assert durations[-1] == LAST_MS


def test_later_frames_store_only_what_changed() -> None:
    frames = _frames()
    one = len(replay_gif(frames[:1]))
    two = len(replay_gif(frames[:2]))
    assert two - one < one / 2


def test_no_frames_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one frame"):
        replay_gif([])
