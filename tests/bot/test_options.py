"""The words after /sfida: every setting, its defaults, and the refusals in Italian."""

from __future__ import annotations

import json

import pytest

from bot.game.challenge import Terms
from bot.game.options import MAX_LENGTH, ChallengeOptions, OptionsError, parse_options
from engine import MatchConfig, SeriesStart, Variant

DEFAULT_TURN = 600


def parse(text: str) -> ChallengeOptions:
    return parse_options(text.split(), DEFAULT_TURN)


def test_no_words_give_a_single_classic_game_with_the_default_turn_limit() -> None:
    options = parse("")
    assert options.config == MatchConfig(Variant.CLASSIC, 1, True, True, False, SeriesStart.LOSER)
    assert options.turn_seconds == DEFAULT_TURN
    assert options.username is None


@pytest.mark.parametrize(
    ("text", "variant", "length"),
    [
        ("lungo 3", Variant.LONG, 3),
        ("LUNGO 3", Variant.LONG, 3),
        ("nardy", Variant.LONG, 1),
        ("classico 5", Variant.CLASSIC, 5),
        ("backgammon a 7 punti", Variant.CLASSIC, 7),
        ("serie da 3 punti lungo", Variant.LONG, 3),
        (f"classico {MAX_LENGTH}", Variant.CLASSIC, MAX_LENGTH),
        ("lungo classico", Variant.CLASSIC, 1),  # the last word wins
    ],
)
def test_variant_and_length(text: str, variant: Variant, length: int) -> None:
    config = parse(text).config
    assert (config.variant, config.length) == (variant, length)


def test_all_long_settings_together() -> None:
    options = parse("@Anna lungo 5 oin ultimo lancio a turno 5m")
    assert options.username == "anna"
    assert options.config == MatchConfig(Variant.LONG, 5, True, False, True, SeriesStart.ALTERNATE)
    assert options.turn_seconds == 300


@pytest.mark.parametrize("text", ["senza cubo", "nocubo", "senzacubo"])
def test_cube_can_be_switched_off(text: str) -> None:
    assert parse(f"classico 5 {text}").config.cube is False


@pytest.mark.parametrize("text", ["senza limite", "senza tempo"])
def test_turn_limit_can_be_switched_off(text: str) -> None:
    assert parse(text).turn_seconds is None


def test_scoring_and_series_start_words() -> None:
    assert parse("lungo oin mars").config.mars is True
    assert parse("lungo mars oin").config.mars is False
    assert parse("lungo aturno perdente").config.series_start is SeriesStart.LOSER
    assert parse("lungo alternato").config.series_start is SeriesStart.ALTERNATE
    assert parse("lungo ultimolancio").config.last_roll is True


@pytest.mark.parametrize(
    ("word", "seconds"),
    [
        ("1m", 60),
        ("5min", 300),
        ("30m", 1800),
        ("1h", 3600),
        ("2ore", 7200),
        ("1ora", 3600),
        ("1g", 86400),
        ("30s", 30),
        ("45sec", 45),
        ("90s", 90),
        ("30 secondi", 30),
        ("2 minuti", 120),
        ("1 ora", 3600),
    ],
)
def test_turn_limit_words(word: str, seconds: int) -> None:
    assert parse(word).turn_seconds == seconds


@pytest.mark.parametrize("word", ["0m", "2g", "25h", "29s", "10 secondi", "1s"])
def test_turn_limit_out_of_range_is_refused_naming_the_minimum(word: str) -> None:
    with pytest.raises(OptionsError, match="da 30 secondi a 1 giorno"):
        parse(word)


@pytest.mark.parametrize(
    ("text", "variant", "cube"),
    [
        ("lunga", Variant.LONG, True),
        ("classica 5 con cubo", Variant.CLASSIC, True),
        ("5 senza cubo cubo", Variant.CLASSIC, True),  # the last word wins
        ("5 cubo senza cubo", Variant.CLASSIC, False),
    ],
)
def test_natural_words(text: str, variant: Variant, cube: bool) -> None:
    config = parse(text).config
    assert (config.variant, config.cube) == (variant, cube)


def test_a_number_before_a_unit_is_a_time_not_a_length() -> None:
    options = parse("lungo 3 punti 30 secondi")
    assert (options.config.length, options.turn_seconds) == (3, 30)


@pytest.mark.parametrize("length", ["0", str(MAX_LENGTH + 1), "100"])
def test_length_out_of_range_is_refused(length: str) -> None:
    with pytest.raises(OptionsError, match=f"La lunghezza va da 1 a {MAX_LENGTH} punti."):
        parse(f"classico {length}")


def test_unknown_word_is_named_back_with_examples() -> None:
    with pytest.raises(OptionsError) as caught:
        parse("lungo 3 velocissimo")
    message = str(caught.value)
    assert "«velocissimo»" in message
    assert "/sfida lungo 3" in message


def test_unknown_word_is_quoted_at_most_30_characters() -> None:
    with pytest.raises(OptionsError) as caught:
        parse("x" * 200)
    assert f"«{'x' * 29}…»" in str(caught.value)


@pytest.mark.parametrize(
    ("word", "shown"),
    [
        ("<b>x</b>", "«&lt;b&gt;x&lt;/b&gt;»"),
        ("<", "«&lt;»"),
        ("&amp;", "«&amp;amp;»"),
        ("@<b>", "«@&lt;b&gt;»"),  # not a username: Telegram's are [a-z0-9_]
        ("@" + "a" * 33, f"«@{'a' * 28}…»"),
    ],
)
def test_unknown_word_is_escaped_for_telegram_html(word: str, shown: str) -> None:
    # The message is sent as HTML: the word must come back literally, not as markup.
    with pytest.raises(OptionsError) as caught:
        parse(f"lungo {word}")
    assert shown in str(caught.value)


@pytest.mark.parametrize("word", ["²", "٣", "1²", "٥m"])
def test_digits_other_than_ascii_are_unknown_words_not_crashes(word: str) -> None:
    # "²".isdigit() is True but int("²") raises; "٥m" would put Arabic digits in a link.
    with pytest.raises(OptionsError, match="Non conosco"):
        parse(word)


def test_a_valid_username_of_32_characters_is_accepted() -> None:
    assert parse("@" + "a_1" * 10 + "zz").username == "a_1" * 10 + "zz"


def test_lonely_senza_is_not_silently_ignored() -> None:
    with pytest.raises(OptionsError, match="«senza»"):
        parse("classico senza")


@pytest.mark.parametrize(
    "text", ["", "lungo 5 oin ultimo a turno 1h", "classico 7 senza cubo senza tempo"]
)
def test_terms_from_words_round_trip_through_json(text: str) -> None:
    options = parse(text)
    terms = Terms.of_options(options)
    payload = json.loads(json.dumps(terms.to_payload()))
    back = Terms.from_payload(payload)
    assert (back.config, back.turn_seconds) == (options.config, options.turn_seconds)


def test_hints_and_shared_analysis_are_off_unless_asked() -> None:
    plain = parse("lungo 3")
    assert (plain.hints, plain.shared_analysis) == (False, False)
    plain_terms = Terms.from_payload(Terms.of_options(plain).to_payload())
    assert (plain_terms.hints, plain_terms.shared_analysis) == (False, False)
    both = parse("classico 5 suggerimenti analisi")
    assert (both.hints, both.shared_analysis) == (True, True)
    assert both.config == MatchConfig(Variant.CLASSIC, 5)
    payload = json.loads(json.dumps(Terms.of_options(both).to_payload()))
    terms = Terms.from_payload(payload)
    assert (terms.hints, terms.shared_analysis) == (True, True)
    # A challenge saved before these options existed has neither.
    del payload["hi"], payload["an"]
    terms = Terms.from_payload(payload)
    assert (terms.hints, terms.shared_analysis) == (False, False)
