"""The bot's Italian texts: Telegram limits, valid HTML, rule facts, originality."""

from __future__ import annotations

import ast
import html
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.texts import VARIANTS, find_section, messages, rules
from bot.texts.messages import PlayerStats, Score, escape
from engine import MatchConfig, MoveProblem, ResultKind, SeriesStart, Variant
from engine.ai import Level

#: The user's source texts (a copy kept with the tests).
SEEDS_DIR = Path(__file__).resolve().parents[1] / "data" / "seeds"
ALLOWED_TAGS = {"b", "i", "code"}
# Telegram first names can be 64 characters; markup characters make escaping longest.
LONG_NAME = "<&>" * 21 + "x"
NAMES = ("Anna", "<b>Ugo</b> & co", LONG_NAME)


class _TagChecker(HTMLParser):
    """Records markup problems the way Telegram's HTML parser would reject them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.errors.append(f"tag <{tag}> not allowed")
        if attrs:
            self.errors.append(f"attributes on <{tag}>")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unbalanced </{tag}> (open: {self.stack})")
        else:
            self.stack.pop()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.errors.append(f"self-closing <{tag}/>")


def html_errors(text: str) -> list[str]:
    checker = _TagChecker()
    checker.feed(text)
    checker.close()
    errors = list(checker.errors)
    if checker.stack:
        errors.append(f"unclosed tags {checker.stack}")
    # A bare '&' or '<' that is not markup must have been escaped.
    without_tags = re.sub(r"</?(b|i|code)>", "", text)
    if "<" in without_tags or ">" in without_tags:
        errors.append("unescaped < or >")
    if re.search(r"&(?!(amp|lt|gt|quot);)", without_tags):
        errors.append("unescaped &")
    return errors


def visible(text: str) -> str:
    """What Telegram shows (and counts against its limits) after parsing the HTML."""
    return html.unescape(re.sub(r"</?(b|i|code)>", "", text))


def all_sections() -> Iterator[tuple[str, rules.Section]]:
    for variant in VARIANTS.values():
        for section in variant.sections:
            yield variant.key, section


# --- Rules ---------------------------------------------------------------------------


def test_both_variants_have_the_required_sections_in_order() -> None:
    classic = [s.key for s in VARIANTS["classico"].sections]
    long = [s.key for s in VARIANTS["lungo"].sections]
    assert classic == ["prep", "movimento", "colpire", "uscita", "punteggio", "cubo", "notazione"]
    assert long == [
        "prep",
        "movimento",
        "testa",
        "blocco",
        "uscita",
        "punteggio",
        "ultimo",
        "serie",
        "notazione",
    ]


def test_section_keys_fit_callback_data() -> None:
    for variant in VARIANTS.values():
        keys = [s.key for s in variant.sections]
        assert len(keys) == len(set(keys)), variant.key
        assert re.fullmatch(r"[a-z0-9_]{1,12}", variant.key)
        for key in keys:
            assert re.fullmatch(r"[a-z0-9_]{1,12}", key), key
            # Room for a versioned prefix and a message id in Telegram's 64 bytes.
            assert len(f"v1:rules:{variant.key}:{key}:1234567890".encode()) <= 64


@pytest.mark.parametrize(("variant_key", "section"), list(all_sections()))
def test_section_bodies_are_short_valid_html(variant_key: str, section: rules.Section) -> None:
    assert html_errors(section.body) == [], (variant_key, section.key)
    assert len(section.body) <= 1000, (variant_key, section.key, len(section.body))
    assert len(section.body) < messages.MAX_MESSAGE_CHARS
    assert 0 < len(section.title) <= 24
    assert "<" not in section.title and "&" not in section.title
    # Each page starts with its own title, so a lone message is self-explaining.
    assert section.body.startswith(f"<b>{section.title}</b>\n")


def test_overview_and_intros_are_valid_and_name_both_games() -> None:
    for text in (rules.OVERVIEW, *(v.intro for v in VARIANTS.values())):
        assert html_errors(text) == []
        assert len(text) <= 1000
    assert "Backgammon classico" in rules.OVERVIEW
    assert "Backgammon lungo" in rules.OVERVIEW


def test_find_section_returns_the_page_or_none() -> None:
    block = find_section("lungo", "blocco")
    assert block is not None and block.title == "Regola del blocco"
    assert find_section("classico", "cubo") is VARIANTS["classico"].sections[5]
    assert find_section("classico", "testa") is None  # long-only page
    assert find_section("scacchi", "prep") is None


def body(variant: str, key: str) -> str:
    section = find_section(variant, key)
    assert section is not None
    return visible(section.body)


def test_classic_rules_state_the_key_facts() -> None:
    prep = body("classico", "prep")
    for fact in ("24 punti", "15 pedine", "2 pedine sul punto 24", "5 sul 13", "3 sull'8"):
        assert fact in prep
    assert "5 sul 6" in prep
    assert "proprio quei due numeri" in prep  # the opening roll is played

    moves = body("classico", "movimento")
    assert "due o più pedine avversarie" in moves
    assert "il più alto" in moves and "quattro" in moves

    hit = body("classico", "colpire")
    assert "25−n" in hit and "barra" in hit and "tutte" in hit

    off = body("classico", "uscita")
    assert "tutte le 15" in off and "punto occupato più alto" in off

    score = body("classico", "punteggio")
    for fact in ("1 punto", "2 punti", "3 punti", "gammon", "backgammon", "cubo"):
        assert fact in score

    cube = body("classico", "cubo")
    assert "2, 4, 8, 16, 32, 64" in cube and "oltre 64" in cube
    assert "Crawford" in cube and "N−1" in cube and "prima di tirare" in cube
    assert "match a 1 punto si gioca senza cubo" in cube.lower()

    notation = body("classico", "notazione")
    for example in ("13/7", "8/5*", "bar/22", "6/off", "13/7/2", "13/2", "8/5(2)"):
        assert example in notation
    assert "Position ID" in notation and "Match ID" in notation


def test_long_rules_state_the_key_facts() -> None:
    prep = body("lungo", "prep")
    assert "testa" in prep and "15" in prep and "il tuo punto 24 è il 12" in prep
    assert "Bianco" in prep and "due dadi" in prep

    moves = body("lungo", "movimento")
    assert "non si colpisce" in moves and "una sola pedina avversaria" in moves

    head = body("lungo", "testa")
    for roll in ("3-3", "4-4", "6-6", "5-5"):
        assert roll in head
    assert "una sola pedina" in head and "primo turno" in head

    block = body("lungo", "blocco")
    assert re.search(r"\b(6|sei) punti (consecutivi|di fila)", block)
    assert "già superato" in block
    assert "12, 11, …, 1, 24, 23, …, 13" in block
    assert "qualsiasi momento del turno" in block

    score = body("lungo", "punteggio")
    assert "Oin" in score and "Mars" in score and "2 punti" in score
    assert "non c'è il cubo" in score

    last = body("lungo", "ultimo")
    assert "patta" in last and "facoltativa" in last

    series = body("lungo", "serie")
    assert "Al perdente" in series and "A turno" in series and "Bianco" in series

    notation = body("lungo", "notazione")
    assert "24/18" in notation and "3/off" in notation


def test_every_body_is_under_the_caption_limit_too() -> None:
    # Handlers may send a page as a photo caption; this keeps that option open.
    for _, section in all_sections():
        assert len(visible(section.body)) <= messages.MAX_CAPTION_CHARS


# --- Messages ------------------------------------------------------------------------


def message_samples() -> Iterator[tuple[str, str]]:
    """Every message function called with plain, markup-laden and 64-character names."""
    m = messages
    settings = m.settings_summary(MatchConfig(Variant.LONG, 7, last_roll=True), 120)
    for name in NAMES:
        yield "welcome", m.welcome(name)
        yield "open_challenge", m.open_challenge(name, settings)
        yield "personal_challenge", m.personal_challenge(name, name, settings)
        yield "challenge_accepted", m.challenge_accepted(name, name)
        yield "challenge_declined", m.challenge_declined(name, name)
        yield "challenge_cancelled", m.challenge_cancelled(name)
        yield "challenge_expired", m.challenge_expired(name)
        yield "challenge_card", m.challenge_card(name, name, settings)
        yield "challenge_card_open", m.challenge_card(name, None, settings)
        yield "challenge_card_expired", m.challenge_card_expired(name)
        yield "computer_game_started", m.computer_game_started(name, Level.DIFFICILE)
        yield "turn_of", m.turn_of(name, False)
        yield "opening_roll", m.opening_roll(name, 6, name, 1)
        yield "no_moves", m.no_moves(name, 6, 6)
        yield "forced_move", m.forced_move(name, "bar/22 13/7")
        yield "move_played", m.move_played(name, "13/7 8/7")
        yield "game_won", m.game_won(name, ResultKind.BACKGAMMON, 192)
        yield "draw_last_roll", m.draw_last_roll(name)
        yield "last_roll_offered", m.last_roll_offered(name)
        yield "score_line", m.score_line(Score(name, 24), Score(name, 3), Variant.CLASSIC, 25)
        yield "match_won", m.match_won(name, Variant.LONG, 7, 9, 5)
        yield "double_offered", m.double_offered(name, 64)
        yield "double_taken", m.double_taken(name, 64)
        yield "double_dropped", m.double_dropped(name, name, 32)
        yield "resigned", m.resigned(name, name, 6, ResultKind.BACKGAMMON)
        yield "timeout_reminder", m.timeout_reminder(name, 30)
        yield "timeout_loss", m.timeout_loss(name, name, 2, ResultKind.MARS)
        yield "move_bad_notation", m.move_bad_notation(name)
        yield "move_illegal", m.move_illegal(name)
        yield "move_ambiguous", m.move_ambiguous(name, [name] * 30)
        for problem in MoveProblem:
            refused = m.move_refused(name, problem, (2, 1), point=25, need=2)
            yield f"move_refused {problem.value}", refused
        yield "steps_so_far", m.steps_so_far(name)
        yield "stats_text", m.stats_text(PlayerStats(name, 1000, 600, 390, 10, 1500, 1200))
        yield "stats_empty", m.stats_text(PlayerStats(name, 0, 0, 0, 0, 0, 0))
        yield "elo_line", m.elo_line([(Variant.CLASSIC, 1543.4), (Variant.LONG, 99999.0)])
        yield "rating_row", m.rating_row(10, name, 1543.4, 99999, 99999)
        yield "options_unknown_word", m.options_unknown_word(name)
    # What a user can type: a whole 4096-character message, echoed back in a reply.
    for label, typed in (("markup", "<&>" * 1365), ("long", "13/7 " * 819)):
        yield f"move_bad_notation {label}", m.move_bad_notation(typed)
        yield f"move_illegal {label}", m.move_illegal(typed)
        yield f"move_ambiguous {label}", m.move_ambiguous(typed, ["13/7 8/7", "13/7 13/12"])
        yield f"move_refused {label}", m.move_refused(typed, MoveProblem.WRONG_DICE, (6, 6))
        yield f"options_unknown_word {label}", m.options_unknown_word(typed)
    yield "help_text", m.help_text()
    yield "settings", settings
    for name in NAMES:
        yield "resign_choose", m.resign_choose(name, name)
        yield "resign_offered", m.resign_offered(name, name, 192, ResultKind.BACKGAMMON)
        yield "resign_ask_long", m.resign_ask_long(name, name, 2, ResultKind.MARS)
        yield "resign_waiting", m.resign_waiting(name, name, 3, ResultKind.BACKGAMMON)
        yield "resign_declined", m.resign_declined(name, name)
        yield "resign_cancelled", m.resign_cancelled(name)
        yield "resign_withdrawn", m.resign_withdrawn(name)
    for kind in (ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON):
        yield f"resign_level_button {kind.value}", m.resign_level_button(kind, 64)
    for variant in Variant:
        yield (
            f"computer_setup {variant.value}",
            m.computer_setup(m.SETUP_CHOOSE_LONG_OPTIONS, variant, Level.MEDIO, 7),
        )
    yield "btn_card_scoring", m.btn_card_scoring(True)
    yield "btn_card_series_start", m.btn_card_series_start(SeriesStart.ALTERNATE)
    yield "opening_tie", m.opening_tie(4)
    for n in (1, 60, 400):  # a long game's rolls are summarised, not listed
        shown = m.verify_last_game(
            (LONG_NAME, LONG_NAME), 3, ("a" * 64, "1012345678901234567", "b" * 64), [(6, 6)] * n
        )
        yield f"verify_last_game {n}", "\n\n".join([m.VERIFY_EXPLAINED, shown])
    yield "dice_commitment", m.dice_commitment("b" * 64)
    for key, value in vars(m).items():
        if key.isupper() and isinstance(value, str) and not key.startswith("ALERT_"):
            yield key, value


@pytest.mark.parametrize(("label", "text"), list(message_samples()))
def test_messages_are_valid_html_within_message_limit(label: str, text: str) -> None:
    assert html_errors(text) == [], label
    assert 0 < len(visible(text)) <= messages.MAX_MESSAGE_CHARS, label


def test_board_captions_fit_even_all_together() -> None:
    # The board photo's caption stacks several of these; the worst case must still fit.
    m = messages
    caption = "\n".join(
        [
            m.score_line(Score(LONG_NAME, 24), Score(LONG_NAME, 24), Variant.CLASSIC, 25),
            m.CRAWFORD_GAME,
            m.turn_of(LONG_NAME, True),
            m.no_moves(LONG_NAME, 6, 6),
            m.steps_so_far("24/18/12/6/off 13/7/1 8/2 6/off"),
            m.double_offered(LONG_NAME, 64),
            m.forced_move(LONG_NAME, "bar/22 bar/22 13/7 13/7"),
            m.timeout_reminder(LONG_NAME, 59),
            m.CONFIRM_PROMPT,
        ]
    )
    assert html_errors(caption) == []
    assert len(visible(caption)) <= m.MAX_CAPTION_CHARS


def test_a_final_caption_with_the_dice_seed_fits() -> None:
    m = messages
    caption = "\n".join(
        [
            m.score_line(Score(LONG_NAME, 24), Score(LONG_NAME, 24), Variant.CLASSIC, 25),
            m.double_dropped(LONG_NAME, LONG_NAME, 64),
            m.match_won(LONG_NAME, Variant.CLASSIC, 25, 88, 24),
            m.dice_seed_revealed("a" * 64),
            m.next_dice_commitment("b" * 64),
        ]
    )
    assert html_errors(caption) == []
    assert len(visible(caption)) <= m.MAX_CAPTION_CHARS


def test_alerts_are_plain_short_and_all_listed() -> None:
    declared = {v for k, v in vars(messages).items() if k.startswith("ALERT_")}
    assert declared == set(messages.ALERTS)
    for alert in messages.ALERTS:
        assert 0 < len(alert) <= messages.MAX_ALERT_CHARS
        assert "<" not in alert and "&" not in alert  # alerts are not parsed as HTML
    required = (
        "Non è il tuo turno",
        "Questo pulsante non è più valido",
        "Non puoi accettare la tua sfida",
        "Questa sfida non è per te",
    )
    for phrase in required:
        assert any(alert.startswith(phrase) for alert in messages.ALERTS), phrase


def test_commands_are_complete_and_valid_for_set_my_commands() -> None:
    names = [command for command, _ in messages.COMMANDS]
    assert names == [
        "sfida",
        "gioca",
        "mossa",
        "partita",
        "mosse",
        "posizione",
        "abbandona",
        "suggerimento",
        "analisi",
        "rivedi",
        "esporta",
        "regole",
        "classifica",
        "statistiche",
        "impostazioni",
        "verifica",
        "seme",
        "aiuto",
    ]
    for command, description in messages.COMMANDS:
        assert re.fullmatch(r"[a-z0-9_]{1,32}", command)
        assert 3 <= len(description) <= messages.MAX_COMMAND_DESCRIPTION_CHARS
    help_text = messages.help_text()
    for command, description in messages.COMMANDS:
        assert f"/{command} - {escape(description)}" in help_text


def test_user_names_are_escaped_everywhere() -> None:
    nasty = "<i>Eve</i> & <b>"
    texts: list[Callable[[], str]] = [
        lambda: messages.welcome(nasty),
        lambda: messages.turn_of(nasty, True),
        lambda: messages.open_challenge(nasty, "<code>"),
        lambda: messages.rating_row(1, nasty, 1500.0, 1, 1),
        lambda: messages.stats_text(PlayerStats(nasty, 1, 1, 0, 0, 1, 0)),
        lambda: messages.move_bad_notation(nasty),
    ]
    for make in texts:
        text = make()
        assert html_errors(text) == []
        assert nasty in visible(text)
    assert escape("a<b>&c") == "a&lt;b&gt;&amp;c"


HOSTILE = (
    "<b>x</b>",
    "<",
    "</code>",
    "<script>alert(1)</script>",
    "&amp; &lt; &#0; &",
    '<a href="javascript:alert(1)">x</a>',
    "<b><i>",
    "\x00\u202e\u200b<",
)


@pytest.mark.parametrize("typed", HOSTILE)
def test_typed_text_is_shown_literally_never_as_markup(typed: str) -> None:
    # Moves typed after /mossa (or in reply to the board) and words after /sfida are
    # echoed back; whatever the user wrote must reach the chat as the user wrote it.
    m = messages
    texts = [
        m.move_bad_notation(typed),
        m.move_illegal(typed),
        m.move_ambiguous(typed, [typed, "13/7 8/7"]),
        m.move_refused(typed, MoveProblem.CLOSED_POINT, (3, 1), point=7),
        m.steps_so_far(typed),
        m.forced_move(typed, typed),
        m.move_played(typed, typed),
        m.rating_row(1, typed, 1500.0, 1, 2),
        m.invite_to_group(typed),
        m.open_challenge(typed, typed),
        m.personal_challenge(typed, typed, typed),
        m.stats_text(PlayerStats(typed, 0, 0, 0, 0, 0, 0)),
        m.stats_text(PlayerStats(typed, 2, 1, 1, 0, 1, 1)),
    ]
    for text in texts:
        assert html_errors(text) == [], text
        assert typed in visible(text), text
    # After /sfida only the first 30 characters of a word come back.
    cut = messages.MAX_QUOTED_OPTION
    shown = typed if len(typed) <= cut else typed[: cut - 1] + "…"
    unknown = m.options_unknown_word(typed)
    assert html_errors(unknown) == []
    assert f"«{shown}»" in visible(unknown)


def test_long_typed_text_is_cut_before_escaping_with_an_ellipsis() -> None:
    # Cutting after escaping could split "&amp;" and break the markup.
    quoted = messages.quote("&" * 200, 100)
    assert quoted == "&amp;" * 99 + "…"
    assert messages.quote("<b>", 100) == "&lt;b&gt;"
    shown = visible(messages.move_bad_notation("x" * 4096))
    assert "x" * 99 + "…" in shown and "x" * 100 not in shown


def test_escaping_happens_exactly_once() -> None:
    # Names are stored raw; the text functions escape them once, so a user who writes an
    # entity sees the entity, and an ampersand stays one ampersand.
    assert messages.player("A&B") == "<b>A&amp;B</b>"
    assert visible(messages.turn_of("A&B", True)) == "Tocca ad A&B (Bianco)"
    assert "«&lt;»" in visible(messages.options_unknown_word("&lt;"))
    assert "<code>&amp;amp;</code>" in messages.move_illegal("&amp;")


def test_wording_of_key_messages() -> None:
    m = messages
    assert m.turn_of("Anna", True) == "Tocca ad <b>Anna</b> (Bianco)"
    assert m.turn_of("Bruno", False) == "Tocca a <b>Bruno</b> (Nero)"
    assert (
        visible(m.resign_ask_long("Anna", "Bruno", 2, ResultKind.MARS))
        == "🏳 Anna, vuoi abbandonare? Bruno vince 2 punti (Mars). Confermi?"
    )
    assert (
        visible(m.resign_offered("Bruno", "Anna", 2, ResultKind.GAMMON))
        == "🏳 Bruno propone di abbandonare: Anna vince 2 punti (gammon). Anna, accetti?"
    )
    assert m.resign_level_button(ResultKind.SINGLE, 1) == "Vittoria semplice · 1 punto"
    assert visible(m.double_offered("Anna", 4)).startswith("Anna offre il raddoppio a 4")
    assert "nessuna mossa possibile, il turno passa" in m.no_moves("Anna", 6, 6)
    assert visible(m.forced_move("Anna", "6-1 13/7")) == "⏩ Mosse forzate: Anna 6-1 13/7"
    assert "patta" in m.draw_last_roll("Anna")
    assert (
        visible(m.game_won("Anna", ResultKind.GAMMON, 4))
        == "Anna vince la partita: gammon, 4 punti."
    )
    assert set(m.LEVEL_NAMES.values()) == {"Facile", "Medio", "Difficile"}
    assert set(m.SERIES_START_NAMES.values()) == {
        "Poi comincia chi perde",
        "Poi si comincia a turno",
    }
    assert (m.BTN_ROLL, m.BTN_DOUBLE, m.BTN_CONFIRM, m.BTN_UNDO) == (
        "Tira i dadi",
        "Raddoppia",
        "Conferma",
        "Annulla",
    )


def test_settings_summary_describes_each_variant() -> None:
    m = messages
    classic = m.settings_summary(MatchConfig(Variant.CLASSIC, 5), 60)
    assert classic == "Backgammon classico · Match a 5 punti · con cubo · 1 minuto per turno"
    single = m.settings_summary(MatchConfig(Variant.CLASSIC, 1, cube=True), None)
    assert "senza cubo" in single  # 1-point matches never use the cube
    assert "senza limite di tempo" in single
    long = m.settings_summary(
        MatchConfig(Variant.LONG, 3, mars=False, series_start=SeriesStart.ALTERNATE), 45
    )
    assert long == (
        "Backgammon lungo · Serie a 3 punti · Oin · senza ultimo lancio · "
        "Poi si comincia a turno · "
        "45 secondi per turno"
    )


def test_leaderboard_and_stats_format() -> None:
    assert visible(messages.rating_row(4, "P3", 1543.4, 4, 6)) == "4. P3: 1543 (4/6 partite vinte)"
    stats = visible(messages.stats_text(PlayerStats("Anna", 4, 3, 1, 0, 5, 2)))
    assert "Vittorie: 3 (75%)" in stats and "Patte" not in stats


# --- Originality: nothing copied from the seeds --------------------------------------

NGRAM = 12


def words(text: str) -> list[str]:
    return re.findall(r"\w+", visible(text).lower())


def ngrams(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + NGRAM]) for i in range(len(tokens) - NGRAM + 1)}


def test_no_twelve_word_sequence_is_copied_from_a_seed() -> None:
    seeds = sorted(SEEDS_DIR.glob("*.txt"))
    assert seeds, f"the seed texts belong in the repository at {SEEDS_DIR}"
    seed_grams: set[tuple[str, ...]] = set()
    for seed in seeds:
        seed_grams |= ngrams(words(seed.read_text(encoding="utf-8")))
    ours = [section.body for _, section in all_sections()]
    ours += [rules.OVERVIEW, *(v.intro for v in VARIANTS.values())]
    ours += [text for _, text in message_samples()]
    for text in ours:
        copied = ngrams(words(text)) & seed_grams
        assert not copied, " ".join(next(iter(copied)))


def test_the_overlap_check_detects_a_copied_sentence() -> None:
    # Guards the guard: the tokenizer must see through markup and curly apostrophes.
    seed_sentence = "uno due tre quattro cinque sei sette otto nove dieci undici dell’ultimo"
    ours = "<b>uno due tre quattro cinque</b> sei sette otto nove dieci undici dell'ultimo"
    assert ngrams(words(seed_sentence)) & ngrams(words(ours))


# --- Words: prepositions before names, dice, results ---------------------------------


@pytest.mark.parametrize(
    ("preposition", "name", "written"),
    [
        ("a", "Anna", "ad "),
        ("a", "àlex", "ad "),
        ("a", "Bruno", "a "),
        ("a", "Elena", "a "),  # the euphonic d only before the same vowel
        ("a", "@anna", "a "),
        ("e", "Elena", "ed "),
        ("di", "Irene", "di "),  # never elided before a name
        ("di", "Ivo", "di "),
        ("di", "Anna", "di "),
        ("di", "Bruno", "di "),
        ("per", "Anna", "per "),
        ("a", "Computer", "al "),
        ("per", "Computer", "per il "),
    ],
)
def test_prepositions_before_names_follow_standard_italian(
    preposition: str, name: str, written: str
) -> None:
    assert messages.prep(preposition, name) == written


def test_names_after_a_preposition_use_the_right_form() -> None:
    m = messages
    assert visible(m.turn_of("Anna", True)) == "Tocca ad Anna (Bianco)"
    assert visible(m.turn_of("Ugo", True)) == "Tocca a Ugo (Bianco)"
    assert m.turn_status("Anna") == "Tocca ad Anna"
    assert "la sfida di Irene" in visible(m.challenge_declined("Irene", "Bruno"))
    assert "Statistiche di Irene" in visible(m.stats_text(PlayerStats("Irene", 1, 1, 0, 0, 1, 0)))
    assert "Impostazioni di Ivo" in visible(m.settings_text("Ivo", True))
    assert "Impostazioni di Anna" in visible(m.settings_text("Anna", True))
    assert "Nuova sfida di Irene" in visible(m.challenge_card("Irene", None, "Lungo"))
    assert "La sfida di Irene non è stata lanciata" in visible(m.challenge_card_expired("Irene"))
    assert "Scegli cosa offrire ad Anna," in visible(m.resign_choose("Bruno", "Anna"))
    assert "Scegli cosa offrire al Computer," in visible(m.resign_choose("Bruno", "Computer"))
    assert "rifiuta l'abbandono di Irene" in visible(m.resign_declined("Anna", "Irene"))


def test_dice_are_written_high_first_and_a_tied_opening_is_rolled_again() -> None:
    assert messages.dice(5, 6) == messages.dice(6, 5) == "6-5"
    assert "ha tirato 6-1" in visible(messages.no_moves("Anna", 1, 6))
    tie = messages.opening_tie(4)
    assert "si tira di nuovo" in tie and "ritira" not in tie


def test_results_name_the_game_or_the_match_and_its_target() -> None:
    m = messages
    won = visible(m.match_won("Anna", Variant.CLASSIC, 3, 12, 0))
    assert won == "🏆 Anna vince il match a 3 punti, 12-0!"
    assert "vince la serie a 5 punti, 6-2" in visible(m.match_won("Ugo", Variant.LONG, 5, 6, 2))
    dropped = visible(m.double_dropped("Bruno", "Anna", 2))
    assert dropped == "Bruno rinuncia e cede 2 punti: Anna vince la partita."


def test_ratings_are_named_in_italian_and_explained() -> None:
    line = visible(messages.elo_line([(Variant.CLASSIC, 1523.4), (Variant.LONG, 1490.0)]))
    assert "Rating" not in line
    assert line.startswith("Punteggio Elo: Classico 1523 · Lungo 1490")
    assert "1500" in line and "variante" in line


def test_an_empty_leaderboard_says_when_a_match_counts() -> None:
    empty = visible(messages.LEADERBOARD_EMPTY)
    assert "quando finisce" in empty and "/statistiche" in empty


# --- Every user-facing string lives in bot/texts ---------------------------------------

BOT_DIR = Path(__file__).resolve().parents[2] / "bot"
ITALIAN_WORDS = {
    "di", "il", "la", "le", "per", "con", "che", "non", "una", "partita", "punti", "punto",
    "tocca", "gioca", "backgammon", "cubo", "mossa", "posizione", "quanti", "classifica",
}  # fmt: skip


def italian_literals(path: Path) -> list[str]:
    """String constants of a module that read as Italian prose (docstrings excluded)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings or " " not in node.value.strip():
                continue
            if ITALIAN_WORDS & set(re.findall(r"\w+", node.value.lower())):
                found.append(node.value)
    return found


def test_no_italian_text_outside_bot_texts() -> None:
    modules = [p for p in BOT_DIR.rglob("*.py") if "texts" not in p.relative_to(BOT_DIR).parts]
    assert modules
    leaks = {str(p.relative_to(BOT_DIR)): italian_literals(p) for p in modules}
    assert {k: v for k, v in leaks.items() if v} == {}


def test_the_leak_check_sees_a_string_in_a_handler(tmp_path: Path) -> None:
    module = tmp_path / "handler.py"
    module.write_text('"""Doc di modulo."""\nTEXT = "<b>Gioca col computer</b> Quanti punti?"\n')
    assert italian_literals(module) == ["<b>Gioca col computer</b> Quanti punti?"]


def test_every_move_problem_has_its_italian_reason() -> None:
    assert set(messages.MOVE_PROBLEMS) == set(MoveProblem)
    closed = visible(messages.move_refused("13/7", MoveProblem.CLOSED_POINT, (6, 5), point=7))
    assert closed == "13/7: il punto 7 è chiuso, lo tiene l'avversario."
    dice = visible(messages.move_refused("13/9", MoveProblem.WRONG_DICE, (1, 3)))
    assert dice.startswith("13/9: non corrisponde al tiro 3-1")
    bar = visible(messages.move_refused("bar/22", MoveProblem.NO_CHECKER, (3, 1), point=25))
    assert bar == "bar/22: non hai pedine da muovere sulla barra."


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(599.4, "10 minuti"), (600.6, "10 minuti"), (59.6, "1 minuto"), (44.6, "45 secondi"),
     (0.2, "1 secondo"), (7199.0, "2 ore")],
)  # fmt: skip
def test_time_left_is_said_in_round_units_when_a_timer_fires_late(
    seconds: float, said: str
) -> None:
    assert messages.remaining(seconds) == said
