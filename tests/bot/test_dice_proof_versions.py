"""Dice proofs of both salt versions: games stored with a press's id (version 1, two
items) still read and verify; games salted with the players' words (version 2) say so in
their document and in /verifica."""

from __future__ import annotations

import pytest

from bot.game.dice import WORDS_VERSION, DiceProof
from bot.texts import messages as m
from engine import derive_dice, dice_salt_of_words

SEED = "cd" * 32


def test_a_version_1_proof_reads_as_it_was_stored() -> None:
    old = DiceProof.from_doc([SEED, "AgAAAJ5eAQBnZK0F"])
    assert (old.version, old.words) == (1, None)
    assert old.to_doc() == [SEED, "AgAAAJ5eAQBnZK0F"]  # written back unchanged
    assert old.source(0).roll() == tuple(derive_dice(SEED, "AgAAAJ5eAQBnZK0F", 2))


def test_a_version_2_proof_keeps_its_version_and_words() -> None:
    salt = dice_salt_of_words("trifoglio7", "42")
    proof = DiceProof(SEED, salt, WORDS_VERSION)
    assert proof.words == ("trifoglio7", "42")
    assert proof.to_doc() == [SEED, salt, 2]
    assert DiceProof.from_doc(proof.to_doc()) == proof


@pytest.mark.parametrize(
    "doc", [[SEED, "12345", 2], [SEED, "v2.a.b", 3], [SEED, "v2.a.b", "2"], [SEED], "x"]
)
def test_a_proof_that_does_not_read_is_refused(doc: object) -> None:
    with pytest.raises(ValueError, match="dice"):
        DiceProof.from_doc(doc)


def test_verifica_names_the_words_or_the_old_salt() -> None:
    rolls = [(3, 1), (6, 6)]
    new = m.verify_last_game(
        ("Anna", "Bruno"), 1, (SEED, "v2.a1.b2", "e" * 64), rolls, ("a1", "b2")
    )
    assert "«a1»" in new and "«b2»" in new
    assert "python verify_dice.py" in new and "--rolls 2 --dice 3-1,6-6" in new
    old = m.verify_last_game(("Anna", "Bruno"), 1, (SEED, "12345", "e" * 64), rolls)
    assert "prima delle parole" in old and "--salt 12345" in old


def test_verifica_stays_one_message_with_the_longest_listed_game() -> None:
    rolls = [(6, 5)] * (m.VERIFY_MAX_ROLLS_CHARS // 4)
    words = ("x" * 32, "y" * 32)
    proof = (SEED, dice_salt_of_words(*words), "e" * 64)
    text = m.verify_last_game(("N" * 64, "M" * 64), 99, proof, rolls, words)
    assert "--dice" in text
    whole = "\n\n".join([m.VERIFY_EXPLAINED, text, m.next_dice_commitment_in_full("f" * 64)])
    assert m.telegram_length(whole) <= m.MAX_MESSAGE_CHARS
    longer = m.verify_last_game(("N", "M"), 1, proof, [*rolls, (1, 2)], words)
    assert "--dice" not in longer and "li stampa il comando" in longer
