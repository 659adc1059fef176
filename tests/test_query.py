"""qa.retrieval.query: cleaning, truncation, scaffolding, glossary expansion, hints, follow-ups, language."""

from __future__ import annotations

import logging

import pytest

from qa.errors import QAError, QueryError
from qa.retrieval.query import analyze, detect_lang, glossary, is_follow_up, points_back, scaffolding, split_segments, stem
from qa.retrieval.terms import query_terms
from qa.text.normalize import normalize

# ── bad input ──────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("text", ["", "   ", "\n\t \u3000", "\x00\x00", " \x07 \x1b "])
def test_empty_or_whitespace_is_a_clear_query_error(text):
    with pytest.raises(QueryError, match="empty question"):
        analyze(text)
    assert issubclass(QueryError, QAError)


def test_non_text_is_a_query_error():
    with pytest.raises(QueryError, match="must be text"):
        analyze(None)  # type: ignore[arg-type]


def test_control_characters_and_nul_are_stripped():
    q = analyze("告\x00旨\u200b何\x1b義")
    assert q.text == "告旨何義"
    assert q.core == "告旨"


def test_long_query_is_cut_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="qa.retrieval.query"):
        q = analyze("賓" * 100_000, max_chars=2000)
    assert q.truncated and len(q.text) == 2000
    assert any("cut to the first 2000" in r.getMessage() for r in caplog.records)
    assert not analyze("告旨何義").truncated


def test_emoji_only_is_not_an_error_but_has_nothing_to_match():
    q = analyze("🙂🙂")
    assert q.is_empty and q.core == "" and q.expansions == ()


# ── scaffolding ────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "question, core",
    [
        ("賓為什麼說旨？", "宾 旨"),
        ("宾为何告旨", "宾 告旨"),
        ("告旨何義", "告旨"),
        ("間歌者何？", "间歌"),
        ("「主人速賓」之速，何訓？", "主人速宾 之速"),
        ("厭字當何解？", "厌字"),
        ("蒲筵通常有多長？", "蒲筵 长"),  # hedges and 有多 go; the 長 asked about stays
        ("「斯禁」是什麼樣的器物？", "斯禁 器物"),
        ("為什麼要說屨？", "说屦"),  # 說屨 is protected: its 說 is not the modern "say"
    ],
)
def test_scaffolding_is_removed(question, core):
    assert analyze(question).core == core


def test_traditional_and_simplified_questions_agree():
    a, b = analyze("賓為什麼告旨？"), analyze("宾为什么告旨？")
    assert a.core == b.core and a.expansions == b.expansions


def test_segments_split_at_punctuation_and_removed_words():
    assert split_segments("降席，坐奠爵") == ["降席", "坐奠爵"]
    assert analyze("介受獻，何以不嚌肺").segments == ("介受献", "不哜肺")


def test_english_scaffolding_and_unknown_words():
    q = analyze("What does 告旨 mean?")
    assert q.core == "告旨" and q.expansions == ()
    q = analyze("why does the guest say 旨?")
    assert q.segments == ("guest", "旨") and q.expansions == ("宾",)


# ── glossary ───────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "question, expected",
    [
        ("Why does the guest bow?", {"宾", "拜"}),
        ("Which cups are used?", {"爵", "觯", "觚"}),
        ("When does the host take off his shoes?", {"主人", "说屦"}),
        ("What is the dried meat?", {"脯"}),
        ("Who stands at the east stairs?", {"立", "阼阶"}),
        ("為什麼脫鞋？", {"说屦"}),
        ("客人什麼時候喝酒？", {"宾", "饮酒"}),
        ("他把杯子放下", {"爵", "觯", "觚", "奠"}),
    ],
)
def test_glossary_expands_everyday_words_to_corpus_terms(question, expected):
    assert expected <= set(analyze(question).expansions)


def test_expansions_already_in_the_question_are_not_repeated():
    q = analyze("Why does the host (主人) bow?")
    assert "主人" not in q.expansions and "主人" in q.core


def test_glossary_file_is_well_formed():
    g = glossary()
    assert len(g.english) > 250 and len(g.chinese) > 150
    for terms in [*g.english.values(), *g.chinese.values()]:
        assert all(t and t == normalize(t) and len(t) <= 4 for t in terms)
    # only a 「-」 row leads to no term, and only these (qa.text.lexicon.NO_TERM)
    assert {k for k, terms in g.chinese.items() if not terms} == {"第二天", "隔天", "次日"}
    assert all(g.english.values())
    # an English key the word pattern does not take (a hyphen: "stand-in host") would be matched as Chinese
    assert not [k for k in g.chinese if any("a" <= ch <= "z" for ch in k)]
    # the ritual vocabulary people ask about is covered
    for word, term in [("guest", "宾"), ("host", "主人"), ("cup", "爵"), ("shoe", "屦"), ("dry meat", "脯")]:
        assert term in g.english[tuple(stem(w) for w in word.split())]
    assert g.chinese[normalize("喝")] == ("饮",)


def test_scaffolding_never_removes_glossary_targets():
    removable = scaffolding().zh | scaffolding().lzh
    targets = {t for ts in [*glossary().english.values(), *glossary().chinese.values()] for t in ts}
    assert not removable & targets


@pytest.mark.parametrize("word, expected", [("guests", "guest"), ("bowed", "bow"), ("bowing", "bow"), ("dried", "dry"),
                                            ("stairs", "stair"), ("sitting", "sit"), ("washes", "wash"), ("is", "is"),
                                            ("rises", "rise"), ("passes", "pass"), ("sat", "sit"), ("stood", "stand"),
                                            ("drank", "drink")])
def test_stem(word, expected):
    assert stem(word) == expected


# ── hints: rites and commentators ──────────────────────────────────────────────


def test_rite_names_become_hints_not_words():
    q = analyze("鄉飲酒禮裡賓的席設在哪裡？")
    assert q.rites == ("xiangyin",) and "乡饮" not in q.core
    assert analyze("燕禮和鄉飲酒禮有什麼不同？").rites == ("yan", "xiangyin")
    assert analyze("In the banquet rite, who pours the wine?").rites == ("yan",)
    assert "乡饮酒礼" in analyze("鄉飲酒禮用什麼牲？").dense_text


def test_a_rite_named_by_its_host_keeps_the_host():
    # "the ruler's feast" is the 燕禮, and its ruler is still the 公 / 君 of the question
    q = analyze("Why do the top nobles get no extra mat at the ruler's banquet?")
    assert q.rites == ("yan",) and {"公", "君"} <= set(q.expansions)
    assert analyze("How many parts did the music have at the lord's feast?").rites == ("yan",)
    # a palace, a state banquet or a king's feast is as often another age's or people's feast
    assert analyze("What did they serve at the king's feast in the palace?").rites == ()
    assert analyze("清朝宫廷宴会满汉全席真的存在吗？").rites == ()
    assert "公" not in analyze("In the village drinking ceremony, who pours?").expansions
    # the 鄉飲酒禮 in lay words: a village's feast, rite or ceremony
    assert analyze("Who pours at the village feast?").rites == ("xiangyin",)
    assert analyze("Why was the village ceremony held in the school?").rites == ("xiangyin",)


def test_commentator_names_become_layer_hints():
    q = analyze("方苞怎麼看鄭注的說法？")
    assert q.layers == ("xiyi", "zhu") and "方苞" not in q.core
    assert analyze("What is Fang Bao's view?").layers == ("xiyi",)


def test_a_bare_layer_asked_to_explain_is_named():
    """「疏何以釋之？」 asks the 疏 as 「賈疏何以釋之？」 does; a 注 written before the words it quotes only says whose they
    are; a layer asked in a later question of two asks for more, not instead."""
    assert analyze("注云「禮者尚敬」，疏何以釋之？").layers == ("shu",)
    assert analyze("鄭注「禮者尚敬」，疏怎麼解釋？").layers == ("shu",)
    assert analyze("這一句注云何？").layers == ("zhu",)
    assert analyze("疏是什麼意思？").layers == ()
    assert analyze("燕礼的乐正相当于天子的什么官？乡饮酒礼的疏又怎么说？").layers == ()


def test_a_commentator_named_before_the_words_he_is_quoted_for_is_not_the_layer_asked():
    """「試據賈疏解釋鄭注“燕乃祭薦”的意思」 asks the 疏 on words of the 注 (so do 鄭玄說「…」 and 鄭注引「…」); the 注's
    words quoted and asked what they mean (「注云「屨賤，不空居堂」，何謂也？」) ask the 疏, which explains them; asked
    anything else, the quoted 注 is the layer."""
    assert analyze("试据贾疏解释郑注“燕乃祭荐，不敢于盛成礼”的意思。").layers == ("shu",)
    assert analyze("鄭注云：「禮者尚敬」，賈疏如何解釋？").layers == ("shu",)
    assert analyze("賈疏怎麼解釋鄭注「公或時未能舉」？").layers == ("shu",)
    assert analyze("鄭玄說「禮者尚敬，敬多則不親」，賈疏舉什麼例子來說明？").layers == ("shu",)
    assert analyze("鄭注引「張而不弛」，賈疏怎樣對應到鄉飲酒的程序上？").layers == ("shu",)
    assert analyze("鄭注「禮者尚敬」何謂？").layers == ("shu",)
    assert analyze("注云「屨賤，不空居堂」，何謂也？").layers == ("shu",)
    assert analyze("鄭注「旨，美也」對嗎？").layers == ("zhu",)
    assert analyze("方氏曰「賓無加席」，何也？").layers == ("xiyi",)
    assert analyze("注云遵者入「不干主人正禮」，何謂正禮？").layers == ("shu",)  # the 注's subject before its words


def test_a_worksheet_frame_names_nothing_in_the_text():
    """請說明…的用意, 試述, 請引鄭注說明: the frame is scaffolding; 說明 leaves no 明 behind."""
    q = analyze("主人酬賓之後，賓把觶放在薦東而不飲，其用意何在？請引鄭注說明。")
    assert "明" not in q.core.split() and "用意" not in q.core and q.layers == ("zhu",)


def test_an_exam_frame_names_nothing_and_asks_a_meaning():
    """名詞解釋：X asks what X means; 簡答題 / 論述題 frame a question; neither is a term of the text."""
    q = analyze("名詞解釋：鄉飲酒禮中的「先生」。")
    assert "名詞解釋" not in q.core and "名词解释" not in q.core and "先生" in q.core
    assert query_terms(q).meaning
    assert "简答" not in analyze("簡答題：主人為什麼要親自去請賓？").core


def test_a_demonstrative_few_asks_no_number():
    """那幾個吹笙的人 are those players, not how many; 幾首 and 多少 still ask a number."""
    assert not query_terms(analyze("奏乐的时候那几个吹笙的人站在哪儿？")).count
    assert not query_terms(analyze("為什麼偏偏挑這幾首？")).count
    assert query_terms(analyze("合樂一共唱幾首？")).count and query_terms(analyze("樂工有多少人？")).count


def test_a_name_ending_a_longer_name_is_no_name():
    """方氏 is 方苞 (方氏曰…), but not inside the 周禮 office 職方氏."""
    assert analyze("《周禮》職方氏所掌者何？").layers == ()
    assert analyze("方氏何以疑之？").layers == ("xiyi",)


def test_a_layer_word_after_a_commentator_is_no_topic():
    # 疏 of 「賈公彥的疏」 names the layer already named: nothing to match, so the follow-up keeps its subject
    q = analyze("那賈公彥的疏又怎麼說？", history=["方苞怎麼看燕禮裡的「士旅食」？"])
    assert q.layers == ("shu",) and q.segments == () and "士旅食" in q.context
    assert analyze("方苞的看法如何？").segments == ()
    assert analyze("鄭玄的注怎麼解釋旅酬？").segments == ("旅酬",)
    assert analyze("疏是什麼意思？").segments == ("疏",)  # no commentator named: 疏 is what is asked


# ── follow-ups ─────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("follow_up", ["那介呢？", "介呢？", "and the 介?", "What about the 介?", "為什麼？",
                                       "ok, and why does the 介 not say it?", "Thanks! What about the 介?",
                                       "明白了，那介為何不告？"])
def test_elliptical_follow_up_carries_the_previous_terms(follow_up):
    q = analyze(follow_up, history=["賓為什麼告旨？"])
    assert "告旨" in q.context
    assert "告旨" in q.lexical_text and "告旨" in q.dense_text


def test_a_short_question_saying_so_or_like_this_follows_on():
    """「這麼」 / 「這樣」 point back at what the turn before described; a question of its own that says them is longer."""
    history = ["鄉飲酒禮上賓、主人、介的俎上各放哪塊肉？"]
    assert "俎" in analyze("為什麼要分得這麼細？", history=history).context
    assert "俎" in analyze("为什么要这样？", history=history).context
    assert analyze("為什麼要分得這麼細？").context == ()
    assert analyze("主人酬賓的時候為什麼要這樣先自己飲酒？", history=history).context == ()
    # 這個 of a thing, place or time points back too
    assert "狗" in analyze("為什麼是這個方向？", history=["鄉飲酒禮的狗是在哪裡煮的？"]).context
    # a question that opens with 他 / 他們 is about whom the turn before asked, marker or none
    assert "司正" in analyze("他喝完那杯酒以后站在哪儿？", history=["乡饮酒礼上的司正是做什么的？"]).context
    assert analyze("主人喝完那杯酒以后站在哪儿？", history=["乡饮酒礼上的司正是做什么的？"]).context == ()
    assert "司正" in analyze("喝完以後他站在哪兒？", history=["乡饮酒礼上的司正是做什么的？"]).context  # 他 anywhere
    # so does a short English question about "he" or "they"; a longer one names its own subject
    history = ["What does the director of music (樂正) do?"]
    assert "乐正" in analyze("Where exactly does he stand?", history=history).context
    assert analyze("Where exactly does the host stand when he bows to the guest at the gate?", history=history).context == ()
    # "these" / "those" of no one named point back as "they" does; "those helpers" names its subject
    assert "乐正" in analyze("Who are these people anyway?", history=history).context
    assert "乐正" in analyze("Where do those two stand?", history=history).context
    assert analyze("When do those helpers get a cup?", history=history).context == ()
    # 這些 / 那些 point back as 這個 does: a where question after a why question about the same mats
    assert "众宾" in analyze("那這些人的席子朝哪邊？", history=["眾賓的席子為什麼不相連？"]).context
    # the classical 其 opening a question is the thing the turn before named; 其實 / 其他 open questions of their own
    assert any("俎" in c for c in analyze("其肉何物？", history=["賓之俎設於何所？"]).context)
    assert analyze("其實主人要站在哪裡？", history=["賓之俎設於何所？"]).context == ()


def test_follow_up_keeps_its_own_subject_first():
    q = analyze("那介呢？", history=["賓為什麼告旨？"])
    assert q.core == "介" and "介" not in q.context


def test_standalone_question_ignores_history():
    q = analyze("主人酬賓的時候為什麼先自己飲酒？", history=["賓為什麼告旨？"])
    assert q.context == ()
    assert analyze("那介呢？").context == ()


def test_an_acknowledgement_alone_makes_no_follow_up():
    # "ok" or 「好的」 before a question of its own leaves it standing alone
    assert analyze("Ok. Why does the host wash the cup before the toast?", history=["賓為什麼告旨？"]).context == ()
    assert analyze("好的，鄉飲酒禮的主人為什麼要洗爵？", history=["賓為什麼告旨？"]).context == ()


def test_ran_ze_opens_a_classical_follow_up_and_names_nothing():
    q = analyze("然則主人之俎何如？", history=["徹俎之後，賓介遵者之俎何所歸？"])
    assert q.core == "主人之俎" and q.lang == "lzh"


def test_choosing_the_guests_is_the_consultation_of_the_jing():
    """謀賓、介 is how the guests are chosen (注: 賢者為賓，其次為介): choose / 選定 reach 謀."""
    assert "谋" in analyze("How were the guest and the deputy guest chosen?").expansions
    assert "谋" in analyze("鄉飲酒禮的賓、介是如何選定的？").expansions


def test_the_grand_music_master_is_the_da_shi_not_the_yue_zheng():
    """"music master" is the 樂正; the "grand music master" a lord lends is the 大師 (注: 謂之大師), whatever the script."""
    assert "大师" in analyze("Is the grand music master washed a cup for?").expansions
    assert "乐正" in analyze("What does the music master do?").expansions
    assert "大师" in analyze("太師來了要洗爵嗎？").expansions


def test_the_classical_once_is_no_tasting():
    """嘗 of 未嘗 / 嘗與…論 / 嘗讀 is "once": it brings no 啐 or 嚌; the modern 嚐 of 不嚐肺, 嚐一口 still does."""
    assert "哜" not in analyze("某嘗讀禮至此，賓何以拜洗？").expansions
    assert "哜" not in analyze("未嘗聞主人之贊者飲，何也？").expansions
    assert "哜" in analyze("賓為什麼不嚐那塊肺？").expansions
    assert "哜" in analyze("主人嘗之乎？").expansions


def test_where_someone_sits_asks_for_the_mat():
    """「X坐哪兒」 / "where does X sit" asks where X's mat (席) is spread; the 坐 "kneel" of 坐取爵 brings no 席."""
    assert "席" in analyze("那介坐哪儿？").expansions
    assert "席" in analyze("鄉飲酒禮賓坐在什麼位置？").expansions
    assert "席" in analyze("賓坐於何所？").expansions
    assert "席" in analyze("ok and where does he sit?").expansions
    assert "席" not in analyze("賓為什麼要坐下來拿杯子？").expansions
    assert "席" not in analyze("Why does the guest sit down to take the cup?").expansions


def test_fang_shi_is_fang_bao():
    assert analyze("燕則卿無俎，方氏何以說之？").layers == ("xiyi",)


def test_follow_up_rule_is_documented():
    assert "elliptical" in (is_follow_up.__doc__ or "")


# ── language ───────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    "text, lang",
    [
        ("賓為什麼說旨？", "zh-Hant"),
        ("宾为什么要告旨？", "zh-Hans"),
        ("告旨何義", "lzh"),
        ("介受獻，何以不嚌肺、不啐酒？", "lzh"),
        ("Why does the guest say 旨?", "en"),
        ("🙂", "mixed"),
        # Cantonese and colloquial Mandarin are modern Chinese, whatever else they lack
        ("點解主人要自己洗杯，唔叫人幫手？", "zh-Hant"),
        ("嗰啲樂工坐喺邊度？", "zh-Hant"),
        ("宾拜两次是干啥", "zh-Hans"),
        # modern Chinese without particles: a word only modern Chinese writes, an A-not-A question, 裡
        ("家里来了客人，茶倒几分满才算有礼貌？", "zh-Hans"),
        ("主人先喝还是客人先喝，算不算失礼", "zh-Hans"),
        ("堂上那個席子裡坐誰", "zh-Hant"),
        ("經或言讓，或言辭，何別？", "lzh"),
        # 如何 is a 文言 question word too; 為何 of a modern question stays modern
        ("此言「如初」，如何節也？", "lzh"),
        ("主人酬賓之觶，賓為何只奠于薦東而不飲？", "zh-Hant"),
    ],
)
def test_language_guess(text, lang):
    assert detect_lang(text) == lang
    assert analyze(text).lang == lang


def test_modern_words_of_the_language_guess_are_not_the_corpus_s(real_retriever):
    # a word that marks modern Chinese must never occur in the corpus, or a question quoting it would be modern
    from qa.retrieval import query

    assert not [w for w in query._MODERN_WORDS if w in real_retriever.bridge.text]


def test_a_possessive_does_not_hide_the_work_named():
    assert analyze("What does the Zhouli's office of the Great Steward do?").other_rites == ("周禮",)
    assert analyze("In the Liji's Monthly Ordinances, what is done in spring?").other_rites == ("禮記",)


# ── classical openings, colloquial frames, rites the corpus lacks, follow-ups that are new questions ──


def test_classical_opening_wen_is_scaffolding():
    assert analyze("問玄酒在西者何？").core == "玄酒在西"
    assert analyze("問賓、介者何？").segments == ("宾", "介")


def test_colloquial_frames_are_scaffolding():
    assert analyze("乐正到底是谁？").core == "乐正"
    assert "干什么" not in analyze("扶乐工的人是干什么的？").core
    assert "规矩" not in analyze("只挂磬不挂钟，这是什么规矩？").core


def test_colloquial_where_frames_are_scaffolding():
    # they ask a place and name none: 位置, 哪边, a lone 在 would only add noise to the match
    assert analyze("主人站在什么位置？").segments == ("主人站",)
    assert analyze("筐放在哪边？").segments == ("筐放",)
    assert analyze("宾推辞，是在什么地方？").segments == ("宾推辞",)


def test_rites_outside_the_corpus_are_named():
    assert analyze("士冠禮三加之冠何如？").other_rites == ("士冠禮",)
    assert analyze("士相見之禮，士以何物為摯？").other_rites == ("士相見禮",)  # written with 之 too
    # "archery" leaves two rites open; "the great archery" names one of them
    assert analyze("What happens at the archery rite?").other_rites == ("鄉射禮 / 大射儀",)
    assert analyze("Is the archery of the great archery rite different?").other_rites == ("大射儀",)
    # bare "archery" is an act the 燕禮 has too (若射，則大射正為司射), as 射箭 is: no rite's name
    assert analyze("Why does the archery only start after the lü shi have their dishes?").other_rites == ()
    assert analyze("In the village archery, how many arrows does each man shoot?").other_rites == ("鄉射禮",)
    assert analyze("What happens at a wedding?").other_rites == ("士昏禮",)
    assert analyze("天子郊祀祭天時，用的是哪幾種酒？").other_rites == ("郊祀",)  # a state sacrifice: no chapter
    assert analyze("賓為什麼告旨？").other_rites == ()
    # the chapter names in pinyin: a reader who knows the chapter writes it so
    assert analyze("What is offered in the te sheng kui shi li?").other_rites == ("特牲饋食禮",)
    assert analyze("Where do the lords stand in the Jin li?").other_rites == ("覲禮",)


def test_a_bare_yan_set_beside_another_rite_names_the_yan_li():
    # classical writers compare so: 「燕之賓無加席，而大射之賓有之」 is about this corpus's 燕禮, set beside the 大射
    assert analyze("燕之賓無加席，而大射之賓有之，何以異也？").rites == ("yan",)
    assert analyze("獻笙，燕洗而鄉射不洗，何也？").rites == ("yan",)
    # so does "the feast" an English question sets against another rite, not "the feast of the archery rite"
    assert analyze("Why does the Music Master go up before the musicians at the feast, but after them in the great archery?"
                   ).rites == ("yan",)
    assert analyze("What is served at the feast of the archery rite?").rites == ()
    # alone, or as a swallow, a bird's nest or a place, it names nothing
    assert analyze("燕之賓無加席，何也？").rites == ()
    assert analyze("燕子窩和大射有什麼關係？").rites == ()


def test_cantonese_question_words_are_scaffolding_and_ask_their_kind():
    q = analyze("點解客人要坐喺座位尾嗰度先飲一啖酒？")
    assert q.segments == ("客人", "坐", "座位尾", "先饮一啖酒")  # 點解, 喺, 嗰度 (and 要) are gone
    assert query_terms(analyze("點解主人唔飲先？")).why and query_terms(analyze("點解主人唔飲先？")).negated
    assert query_terms(analyze("樂工企喺邊度？")).where and "立" in analyze("樂工企喺邊度？").expansions


def test_a_question_that_names_rites_is_not_a_follow_up():
    assert analyze("鄉飲酒禮和燕禮有什麼不同？", history=["賓為什麼告旨？"]).context == ()
    assert analyze("那燕禮呢？", history=["賓為什麼告旨？"]).context  # a marker keeps it a follow-up


def test_follow_up_keeps_the_rite_of_the_conversation():
    assert analyze("那卿的席呢？", history=["燕礼宾的席为什么没有加席？"]).rites == ("yan",)
    # a follow-up that names a rite of its own asks about that one
    assert analyze("那鄉飲酒禮呢？", history=["燕礼宾的席为什么没有加席？"]).rites == ("xiangyin",)
    # a question that stands alone inherits nothing
    assert analyze("卿的席为什么东上？", history=["燕礼宾的席为什么没有加席？"]).rites == ()
    # a longer question that says it follows on keeps the rite, not the previous question's words
    q = analyze("And the next day, when the guest comes to thank him, do they actually meet?",
                history=["In the district drinking ceremony, why does the host see the guest off?"])
    assert q.rites == ("xiangyin",) and q.context == ()
    # ... unless it names a rite of its own
    q = analyze("And at the duke's banquet, who plays the host, since the duke himself can't?",
                history=["Who is the host in the village drinking rite, a private man or an official?"])
    assert q.rites == ("yan",)
    assert analyze("Separate question: why does the guest bow?",
                   history=["In the district drinking ceremony, why does the host see the guest off?"]).rites == ()


def test_english_hedge_words_are_scaffolding():
    assert analyze("Does the guest actually bow?").core == "guest bow"


@pytest.mark.parametrize("question, term", [("宾接酒的时候拜吗？", "受"), ("杯子放回筐里吗？", "奠"),
                                            ("帮忙倒水的人是谁？", "沃"), ("Does he lean on the wall?", "序")])
def test_everyday_verbs_and_places_reach_the_corpus_words(question, term):
    assert term in analyze(question).expansions


def test_everyday_names_of_the_rites():
    """國君請客 is the 燕禮, 鄉里喝酒 the 鄉飲酒禮; the first name listed stays what the encoder reads."""
    from qa.text.lexicon import rite_names

    assert analyze("國君請客的時候，替國君當主人的官喝完為什麼不拜？").rites == ("yan",)
    assert analyze("鄉里喝酒的時候誰先喝？").rites == ("xiangyin",)
    assert rite_names()["yan"] == "燕礼" and rite_names()["xiangyin"] == "乡饮酒礼"
    # the English names, with or without the wine: "village wine-drinking ceremony", "district symposium"
    q = analyze("At the village wine-drinking ceremony, who leads the blind musicians?")
    assert q.rites == ("xiangyin",) and "ceremony" not in q.core
    assert analyze("Who sits where at the district symposium?").rites == ("xiangyin",)
    assert analyze("Is wine drinking good for you?").rites == ()


def test_glossary_words_cover_phrases():
    from qa.retrieval.query import glossary_words

    assert glossary_words(["keep", "order", "halfway"]) == {"keep", "order"}  # the phrase, not "keep" alone
    assert glossary_words(["keep", "halfway"]) == set()


def test_sequence_frames_are_scaffolding_and_the_glossary_reads_what_is_left():
    q = analyze("唱完歌以后接下来干嘛？")
    assert "接下来" not in q.core and "受" not in q.expansions  # 接 of 接下來 is no 受 (to receive)
    assert "歌" in q.expansions or "歌" in q.core
    assert analyze("整个流程的顺序是怎样的？先献宾还是先献介？").core.split()[-2:] == ["先献宾", "先献介"]


def test_a_phrasal_verb_written_apart_is_still_the_glossary_phrase():
    """"set the goblet down" is *set down* (奠); the particle is no word of its own, and both words
    count as glossary words (the English confidence rule reads them)."""
    from qa.retrieval.query import glossary_words

    q = analyze("Why does he set the goblet down in front of the guest?")
    assert "奠" in q.expansions
    assert {"set", "down"} <= glossary_words(["why", "does", "he", "set", "the", "goblet", "down", "in", "front", "of", "the", "guest"])
    assert "奠" in analyze("He puts the cup down").expansions
    # written together, or a longer phrase: matched as it is (set out → 設 陳), not as set … down
    assert "奠" not in analyze("They set out the mats, then sit down").expansions
    # too far apart: no phrase
    assert "奠" not in analyze("set the very large heavy goblet down").expansions


def test_identity_frames_ask_what_a_term_is():
    """「左右正指哪些官？」, 「X指的是什麼」 ask for the gloss of X, as 「X是什麼」 does."""
    from qa.retrieval.terms import query_terms

    # and the classical 何訓 / 何解 / 何釋 of a word: 「「主人速賓」之速，何訓？」
    for q in ("燕禮最後獻的左右正指哪些官？", "旅酬指的是什麼？", "樂正是什麼官？", "「主人速賓」之速，何訓？", "厭字何解？"):
        assert query_terms(analyze(q)).meaning, q
    assert not query_terms(analyze("樂正站在哪裡？")).meaning


def test_modern_facings_and_days_reach_the_corpus_words():
    assert {"东面", "东乡"} <= set(analyze("站在堂下的人是朝東站嗎？").expansions)
    # the next day (第二天) names the rite's next-day stage, but leads to no 明日 (its 「-」 row; see below)
    assert "明日" not in analyze("第二天那場宴會唱什麼？").expansions and "明日" in analyze("the next day").expansions
    assert "合乐" in analyze("What is the joined music?").expansions


def test_lay_english_for_without_a_count():
    assert normalize("無算") in analyze("They keep playing with no fixed number of songs").expansions


def test_hand_is_a_verb_when_an_object_follows_it_and_a_noun_when_it_ends_its_phrase():
    give, hand = normalize("授"), normalize("手")
    assert give in analyze("Why does the guest hand his dried meat to the players?").expansions
    assert give in analyze("Why not set it down instead of handing it to him?").expansions
    assert give in analyze("they hand him a cup").expansions
    by_hand = analyze("Why do the helpers lead them by the hand?").expansions
    assert hand in by_hand and give not in by_hand
    assert give not in analyze("Does the host put the cup into the guest's hand?").expansions


def test_cook_is_the_boiling_when_an_object_follows_it_and_the_officer_when_it_ends_its_phrase():
    boil, cook = normalize("亨"), normalize("膳宰")
    assert boil in analyze("Where do they cook the dog?").expansions
    assert cook not in analyze("Where do they cook the dog?").expansions
    assert cook in analyze("Who is the cook?").expansions


def test_both_is_the_two_together():
    assert normalize("皆") in analyze("Why do both officers bow?").expansions


def test_a_modern_word_split_by_an_aspect_particle_still_reaches_the_glossary():
    assert normalize("盥") in analyze("主人已经洗过手了，为什么还要再洗？").expansions
    assert normalize("盥") in analyze("主人洗手以後做什麼？").expansions


def test_colloquial_words_for_the_water_jar_the_blind_musicians_and_drinking_in_turn():
    assert normalize("玄酒") in analyze("酒壶旁边那壶水是干嘛的？").expansions
    assert normalize("瞽") in analyze("扶瞎子的人是谁？").expansions
    assert normalize("旅酬") in analyze("大家轮流喝酒是怎么轮的？").expansions


def test_digits_inside_chinese_read_as_numerals():
    """The corpus writes no digits: 第2天 is matched as 第二天, 4個 as 四個; the text shown stays as typed."""
    from qa.retrieval.query import hanzi_numbers

    assert hanzi_numbers("鄉飲酒禮第2天做什麼？") == "鄉飲酒禮第二天做什麼？"
    assert hanzi_numbers("一共12首，20人，第１０節") == "一共十二首，二十人，第十節"
    assert hanzi_numbers("第123天") == "第123天"  # three digits: left alone
    assert hanzi_numbers("Why are there 4 musicians?") == "Why are there 4 musicians?"  # among English words
    typed = analyze("鄉飲酒禮第2天做什麼？")
    assert typed.text == "鄉飲酒禮第2天做什麼？"
    assert typed.segments == analyze("鄉飲酒禮第二天做什麼？").segments


def test_full_width_letters_are_english():
    assert detect_lang("ＷＨＹ ＤＯＥＳ ＴＨＥ ＧＵＥＳＴ ＢＯＷ？") == "en"


def test_the_classics_own_name_is_no_topic():
    # 儀禮 names the whole corpus: removed like scaffolding, and it does not make a classical question modern
    assert analyze("《儀禮》裡賓為什麼要誇酒好？").segments == analyze("賓為什麼要誇酒好？").segments
    assert analyze("儀禮鄉飲酒禮賓何以告旨？").lang == "lzh"
    assert "仪礼" not in analyze("仪礼里宾为什么要夸酒好").core
    assert "告旨" in analyze("宾为什么要夸酒好").expansions  # 誇酒 / 夸酒 is the glossary's 告旨


def test_a_glossary_word_leading_to_no_term_expands_nothing_but_is_the_rites_vocabulary(real_retriever):
    """第二天 is a word of the rite (its next-day stage) whose 「-」 row leads to no term: 明日 would send every next-day
    question to the one 經 that says it. The confidence rule still counts it as the rites' vocabulary."""
    from qa.retrieval.confidence import _content_terms

    q = analyze("第二天主人脫掉禮服以後換穿什麼？")
    assert "明日" not in q.expansions and "第二天" in glossary().chinese and glossary().chinese["第二天"] == ()
    idf = real_retriever.data.lexical.term_idf()
    _, on = _content_terms(q, idf, max(idf.values()))
    assert {"第", "二", "天"} <= on
    assert real_retriever.ask("第二天主人脫掉禮服以後換穿什麼？").hits[0].unit.id == "zhushu.xiangyin.132"



def test_dashes_and_slashes_between_english_words_part_them():
    # "mouth-organ", "the cup—why", "guest/host": two words each, not one glued word the glossary never knows
    assert analyze("Who plays the mouth-organ?").core.split() == ["plays", "mouth", "organ"]
    assert {"cup", "senior"} <= set(analyze("the senior one presents the cup—why?").core.split())
    assert "cupwhy" not in analyze("the senior one presents the cup—why?").core
    assert {"guest", "host"} <= set(analyze("Does the guest/host bow first?").core.split())


def test_a_follow_up_asking_anew_of_its_own_subject_carries_the_rite_not_the_terms():
    """「那狗肉在哪兒煮？」 after 「鄉飲酒禮上吃的是什麼肉？」 names its own subject and asks where, not what: the
    conversation's rite stays, the turn before's terms would only pull it back; a pronoun, a demonstrative or the
    same kind of question keeps them."""
    q = analyze("那狗肉在哪儿煮？", history=["乡饮酒礼上吃的是什么肉？"])
    assert q.context == () and q.rites == ("xiangyin",)
    assert analyze("那介坐哪儿？", history=["乡饮酒礼里正宾的座位在哪里？"]).context  # where after where
    assert analyze("他喝完以後站在哪裡？", history=["鄉飲酒禮的司正是做什麼的？"]).context  # 他: the 司正
    assert analyze("那方苞是怎么看的？", history=["燕礼里国君为什么拿宾媵的觯去酬宾？"]).context  # nothing of its own
    # where the 介 sits is asked anew after why the guest praises the wine
    for text in ("ok, and where does the 介 sit?", "明白了，那介站哪？"):
        assert analyze(text, history=["賓為什麼告旨？"]).context == (), text


def test_cantonese_movement_words_reach_the_corpus_verbs():
    """Hong Kong readers' 落去 / 行落 (go down), 上嚟 (come up), 跟住 (following) and 嘢食 are the corpus's 降, 升, 從, 薦."""
    q = analyze("主人落去洗杯嗰陣，點解客人都要跟住行落嚟？")
    assert {"降", "从"} <= set(q.expansions)
    assert "荐" in analyze("佢幾時先有嘢食？").expansions


def test_english_negative_contractions_are_function_words():
    """"couldn't", "wouldn't", "wasn't" are no content words of the question (the negation is read from its text)."""
    assert analyze("Why wouldn't he wash the cup?").core == "wash cup"
    assert "couldnt" not in analyze("Why couldn't the guest sit down yet?").core


def test_it_points_back_as_he_does():
    """"it" is someone's or something the turn before named, as "he" is: a short question about it follows on; a
    question with no pronoun or demonstrative points back at nothing (points_back: the pipeline's second reading)."""
    history = ["What does the saying 'three times raised, never an empty cup' mean?"]
    assert analyze("So which occasions is it talking about?", history=history).context
    assert points_back("Why does he twist it first?") and points_back("那他們呢？") and points_back("為什麼是這個方向？")
    assert not points_back("What songs are sung at the village drinking ceremony?")
