"""Word lists of hf_anon.text.lexicon: what is a word at all."""

from hf_anon.text.lexicon import is_known_word


def test_known_words_tell_a_word_from_the_rest_of_a_split_one():
    assert is_known_word("hat") and is_known_word("Antragsgegner")
    assert is_known_word("Mail-Adresse")  # the part before a hyphen decides
    assert not is_known_word("ntragsgegner") and not is_known_word("eschenkproben")
