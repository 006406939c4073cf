"""Hand-made positions that exercise every part of the picture.

Used by the gallery command, by the PNG palette (which must see every colour the board
can show) and by tests. Counts are written point by point in each side's own
numbering, as in ``BoardView``.
"""

from __future__ import annotations

from render.view import BoardView, Die, LastStep, Variant, pip_count


def counts(off: int = 0, bar: int = 0, **points: int) -> tuple[int, ...]:
    """26 counts from keyword points, e.g. ``counts(off=2, p6=5, p8=3)``."""
    c = [0] * 26
    c[0], c[25] = off, bar
    for key, n in points.items():
        c[int(key[1:])] = n
    return tuple(c)


def view(
    variant: Variant, white: tuple[int, ...], black: tuple[int, ...], **kwargs: object
) -> BoardView:
    """A ``BoardView`` with pip counts filled in and friendly defaults."""
    kwargs.setdefault("names", ("Marco", "Giulia"))
    kwargs.setdefault("pips", (pip_count(white), pip_count(black)))
    return BoardView(variant=variant, white=white, black=black, **kwargs)  # type: ignore[arg-type]


def dice(*values: int, used: int = 0) -> tuple[Die, ...]:
    """Dice for a roll; a double becomes four dice. The first ``used`` are dimmed."""
    vals = list(values) * (2 if len(values) == 2 and values[0] == values[1] else 1)
    return tuple(Die(v, i < used) for i, v in enumerate(vals))


CLASSIC_START = counts(p24=2, p13=5, p8=3, p6=5)
LONG_START = counts(p24=15)


def classic_start() -> BoardView:
    return view(
        "classic",
        CLASSIC_START,
        CLASSIC_START,
        dice=dice(3, 1),
        cube_value=1,
        match_length=5,
        status="Tocca al Bianco",
    )


def long_start() -> BoardView:
    return view(
        "long", LONG_START, LONG_START, dice=dice(6, 5), match_length=3, status="Tocca al Bianco"
    )


def classic_bar_hit() -> BoardView:
    """White has just played 13/7*/4*: two black checkers on the bar."""
    white = counts(p24=2, p13=4, p8=3, p6=5, p4=1)
    black = counts(bar=2, p24=2, p13=5, p8=3, p6=3)
    return view(
        "classic",
        white,
        black,
        turn="black",
        perspective="black",
        dice=dice(5, 2),
        cube_value=2,
        cube_owner="black",
        match_length=7,
        score=(3, 4),
        status="Tocca al Nero: rientra dalla barra",
        last_play=(LastStep("white", 13, 7, True), LastStep("white", 7, 4, True)),
    )


def classic_bearoff() -> BoardView:
    white = counts(off=6, p1=2, p2=3, p3=2, p4=1, p5=1)
    black = counts(off=3, p1=3, p2=3, p3=2, p5=2, p6=2)
    return view(
        "classic",
        white,
        black,
        turn="black",
        perspective="black",
        dice=dice(6, 4),
        cube_value=4,
        cube_owner="white",
        match_length=0,
        score=(2, 1),
        status="Tocca al Nero",
        last_play=(LastStep("white", 6, 0), LastStep("white", 4, 0)),
    )


def classic_cube(owner: str) -> BoardView:
    white = counts(p24=1, p20=1, p13=3, p9=2, p8=2, p6=4, p5=2)
    black = counts(p24=2, p13=4, p11=1, p8=2, p7=2, p6=3, p4=1)
    value = 2 if owner == "white" else 8
    turn = "black" if owner == "white" else "white"
    return view(
        "classic",
        white,
        black,
        turn=turn,
        perspective=turn,
        cube_value=value,
        cube_owner=owner,
        match_length=11,
        score=(6, 9),
        crawford=False,
        status=f"Cubo a {value}",
        dice=(),
    )


def classic_cube_offered() -> BoardView:
    """Black owns the cube at 2 and offers it back at 4: drawn in Black's half."""
    view = classic_cube("white")
    return BoardView(
        **{
            **view.__dict__,
            "cube_value": 4,
            "cube_owner": "black",
            "cube_offered_by": "black",
            "turn": "white",
            "perspective": "white",
            "status": "Giulia offre il raddoppio a 4",
        }
    )


def classic_crawford() -> BoardView:
    """The Crawford game: nobody may double, so the cube is greyed out."""
    return view(
        "classic",
        CLASSIC_START,
        CLASSIC_START,
        dice=dice(6, 4),
        cube_value=1,
        cube_active=False,
        match_length=5,
        score=(4, 2),
        crawford=True,
        status="Tocca al Bianco",
    )


def classic_final() -> BoardView:
    """A finished game: the result and the match score on a banner."""
    white = counts(off=15)
    black = counts(p22=1, p8=4, p6=6, p3=4)
    return view(
        "classic",
        white,
        black,
        turn=None,
        cube_value=2,
        cube_owner="white",
        match_length=7,
        score=(7, 1),
        banner=("Marco vince 6 punti · backgammon", "Marco 7 – 1 Giulia", "Marco vince il match!"),
        last_play=(LastStep("white", 1, 0),),
    )


def long_final() -> BoardView:
    """A finished long game: White's head is empty, Black's still holds two checkers."""
    white = counts(off=15)
    black = counts(p24=2, p18=4, p12=5, p7=4)
    return view(
        "long",
        white,
        black,
        turn=None,
        match_length=3,
        score=(2, 0),
        banner=("Marco vince 2 punti · Mars", "Marco 2 – 0 Giulia"),
        last_play=(LastStep("white", 2, 0), LastStep("white", 1, 0)),
    )


def long_midgame() -> BoardView:
    """White holds six points in a row (10..5) with a black checker already past them."""
    white = counts(p24=5, p10=2, p9=2, p8=2, p7=1, p6=2, p5=1)
    black = counts(p24=7, p16=2, p15=2, p13=1, p11=1, p9=2)
    return view(
        "long",
        white,
        black,
        turn="black",
        perspective="black",
        dice=dice(3, 3, used=2),
        match_length=5,
        score=(1, 2),
        status="Tocca al Nero",
        last_play=(LastStep("white", 14, 10), LastStep("white", 11, 5)),
    )


def long_bearoff() -> BoardView:
    white = counts(off=9, p1=2, p3=2, p6=2)
    black = counts(off=4, p2=3, p4=3, p5=3, p6=2)
    return view(
        "long",
        white,
        black,
        turn="white",
        dice=dice(5, 1, used=1),
        match_length=0,
        status="Tocca al Bianco",
        last_play=(LastStep("white", 5, 0),),
    )


def stacks_of_15() -> BoardView:
    return view(
        "classic",
        counts(p6=15),
        counts(p6=15),
        turn="white",
        dice=dice(2, 2),
        cube_value=1,
        status="Quindici pedine su un punto",
    )


def game_over() -> BoardView:
    white = counts(off=15)
    black = counts(off=4, p3=5, p6=6)
    return view(
        "classic",
        white,
        black,
        turn=None,
        cube_value=2,
        cube_owner="black",
        match_length=7,
        score=(7, 4),
        status="Marco vince la partita (2 punti)",
        last_play=(LastStep("white", 2, 0), LastStep("white", 1, 0)),
    )


def roll_views() -> dict[str, BoardView]:
    """The starting position with each of the 21 distinct rolls."""
    out: dict[str, BoardView] = {}
    for a in range(1, 7):
        for b in range(a, 7):
            out[f"roll_{a}-{b}"] = view(
                "classic",
                CLASSIC_START,
                CLASSIC_START,
                dice=dice(b, a),
                cube_value=1,
                status=f"Tocca al Bianco: {b}-{a}",
            )
    return out


def named_views() -> dict[str, BoardView]:
    """Every sample position by gallery name (without the 21 rolls)."""
    return {
        "classic_start": classic_start(),
        "long_start": long_start(),
        "classic_bar_hit": classic_bar_hit(),
        "classic_bearoff": classic_bearoff(),
        "classic_cube_white": classic_cube("white"),
        "classic_cube_black": classic_cube("black"),
        "long_midgame": long_midgame(),
        "long_bearoff": long_bearoff(),
        "stacks_of_15": stacks_of_15(),
        "game_over": game_over(),
        "classic_cube_offered": classic_cube_offered(),
        "classic_crawford": classic_crawford(),
        "classic_final": classic_final(),
        "long_final": long_final(),
    }
