"""Words checked one by one: the computer always with its article, names whole after "di",
one family of words for resigning, the same name for a simple win on buttons and results,
the Elo line true to the formula, plain words for who starts a series game, forced plays
on one line, backwards moves named."""

from __future__ import annotations

import html
import re

from bot.texts import messages as m
from bot.texts import move_list as ml
from engine import MatchConfig, ResultKind, SeriesStart, Variant

C = m.COMPUTER_NAME


def visible(text: str) -> str:
    return html.unescape(re.sub(r"</?(?:b|i|code)>", "", text))


def test_the_computer_takes_the_article_everywhere() -> None:
    assert visible(m.game_won(C, ResultKind.SINGLE, 1)).startswith("Il Computer vince")
    assert visible(m.move_played(C, "6-4: 24/14")).startswith("Il Computer ha giocato")
    assert visible(m.turn_of(C, False)) == "Tocca al Computer (Nero)"
    assert "Anna vince" in visible(m.resigned(C, "Anna", 1, ResultKind.SINGLE))
    assert visible(m.resigned("Anna", C, 1, ResultKind.SINGLE)).startswith(
        "Anna abbandona: il Computer vince"
    )
    assert "offrire al Computer," in visible(m.resign_choose("Anna", C))
    assert m.banner_result(C, 2, ResultKind.GAMMON) == "Il Computer vince 2 punti · gammon"
    assert "Computer vince" not in visible(m.double_dropped("Anna", C, 1)).replace(
        "il Computer vince", ""
    )
    # A label (a score, a list) carries no article.
    assert visible(m.score_line(m.Score("Anna", 1), m.Score(C, 2), Variant.CLASSIC, 3)) == (
        "Punteggio: Anna 1 - 2 Computer (match a 3 punti)"
    )
    assert visible(ml.play(3, C, "6-4", "24/14")) == "3. Computer 6-4: 24/14"


def test_names_stay_whole_after_di() -> None:
    assert visible(m.settings_text("Ivo", True)).startswith("Impostazioni di Ivo")
    assert "d'" not in visible(m.challenge_expired("Irene"))


def test_one_word_family_for_resigning() -> None:
    texts = [
        m.BTN_RESIGN,
        m.BTN_RESIGN_YES,
        m.BTN_RESIGN_ACCEPT,
        m.resign_choose("Anna", "Bruno"),
        m.resign_offered("Anna", "Bruno", 1, ResultKind.SINGLE),
        m.resign_ask_long("Anna", "Bruno", 1, ResultKind.OIN),
        m.resign_waiting("Anna", "Bruno", 1, ResultKind.SINGLE),
        m.resign_declined("Bruno", "Anna"),
        m.resign_withdrawn("Anna"),
        m.RESIGN_MOOT,
        m.ALERT_RESIGN_OPEN,
        m.ALERT_RESIGN_PENDING,
        m.ALERT_RESIGN_FOR_OPPONENT,
    ]
    for text in texts:
        lowered = visible(text).lower()
        assert not re.search(r"\bres[ae]\b|arrend", lowered), text
    assert all("abbandon" in visible(t).lower() for t in texts if "Accetto" in t or "🏳" in t)


def test_a_simple_win_has_one_name() -> None:
    assert (
        m.resign_level_button(ResultKind.SINGLE, 1)
        .lower()
        .startswith(m.RESULT_NAMES[ResultKind.SINGLE])
    )


def test_oin_only_games_never_name_a_mars() -> None:
    oin = MatchConfig(Variant.LONG, 3, mars=False)
    assert m.kind_shown(ResultKind.MARS, oin) is ResultKind.OIN
    assert m.kind_shown(ResultKind.MARS, MatchConfig(Variant.LONG, 3)) is ResultKind.MARS


def test_the_opening_tie_and_the_series_start_in_plain_words() -> None:
    assert "testa" not in m.opening_tie(4)
    assert "per entrambi" in m.opening_tie(4)
    for start in SeriesStart:
        assert "1ª" not in m.btn_card_series_start(start)
    caption = " ".join(m.caption_settings(MatchConfig(Variant.LONG, 3), 60))
    assert "comincia chi ha perso la precedente" in caption


def test_the_elo_line_says_what_the_formula_does() -> None:
    line = visible(m.elo_line([(Variant.CLASSIC, 1500.0)]))
    assert "di più contro chi è più forte" not in line
    assert "Battere chi ha un punteggio più alto fa salire di più" in line
    assert "perdere contro chi l'ha più basso fa scendere di più" in line


def test_forced_plays_share_one_line_and_hashes_are_short() -> None:
    line = m.more_forced(m.forced_move("Anna", "6-5 24/13"), "Bruno", "2-1 24/21")
    assert visible(line) == "⏩ Mosse forzate: Anna 6-5 24/13 · Bruno 2-1 24/21"
    assert "a" * 13 not in m.dice_seed_revealed("a" * 64)
    assert "b" * 13 not in m.next_dice_commitment("b" * 64)
    assert "/verifica" in m.dice_seed_revealed("a" * 64)


def test_a_backwards_move_is_named_as_such() -> None:
    text = visible(m.move_bad_notation("1/7"))
    assert text.startswith("1/7 va all'indietro") and "7/1" in text
    assert visible(m.move_bad_notation("xyz")).startswith("Non capisco")
