"""qa.retrieval.confidence: off-topic questions in four languages are low-confidence; real ones, even one word, are not."""

from __future__ import annotations

import pytest

from qa.retrieval.confidence import (
    CALIBRATION_VERSION,
    CLASSICAL_TOPIC_VETO,
    ENGLISH_TOPIC_VOUCH,
    RITUAL_MIN,
    SEAM_WEIGHT,
    TOPIC_SURE,
    TOPIC_SURE_FLOOR,
    Calibration,
    Signals,
    asked_part,
    noise_queries,
    offtopic_questions,
    preface_words,
    ritual_share,
)
from qa.retrieval.query import analyze
from qa.retrieval.remarks import chinese_guess, chinese_preface

# Off-topic questions that are NOT in qa/data/offtopic.tsv (the calibration list): the rule must generalize.
OFF_TOPIC = [
    "How do I install Python?",
    "What is the capital of France?",
    "今天天氣怎麼樣",
    "股票怎么买",
    "如何安装Python",
    "我想买一部手机",
    "Who painted the Mona Lisa?",
    "北京到上海有多远",
    "怎么做红烧肉",
    "美國總統是誰",
    # all English, one word of the rite's vocabulary (cook, host) among others
    "How do I cook rice?",
    "What does the host of a podcast do?",
    # a lone syllable not marked as a term is no ritual word (ming of the Ming dynasty)
    "What was it like to sit the imperial civil service exams in the Ming dynasty?",
    # an eatery or an orchestra of today, in the rite's words (主人, 客, 禮; the conductor who stands in the middle)
    "今日主人在茶樓請客，客人先到，合禮嗎？",
    "交響樂團演出時，指揮為何站在中央？",
]
RITUAL = ["旨", "何謂旅酬", "What is 旅酬?", "介", "樂正是什麼官", "脫鞋是什么意思", "鄉飲酒禮", "why does the guest say 旨?",
          "主人酬賓的時候，為什麼要自己先把酒喝了？",
          "Why does the host wash the cup?", "What is the xuanjiu for?", "Why does the guest say 'zhi'?",
          "卿咋没有放肉的案子（俎）？",
          "Among the mouth-organ players one is called the 'he' (和). What is that?",  # a glossary phrase counts
          "唱完歌以后接下来干嘛？", "主人敬完酒，接着轮到谁？",  # sequence frames name nothing off topic
          "最后大合奏唱的那几首诗，原本是谁唱的歌？", "这个仪式到底是为了啥？"]  # nor modern adverbs (最后, 原本, 到底)  # a term put in brackets is written on purpose


def test_calibration_list_is_disjoint_from_the_tested_questions():
    listed = set(offtopic_questions())
    assert len(listed) >= 40 and not listed & set(OFF_TOPIC)


def test_rule_on_hand_written_signals():
    c = Calibration(dense_min=0.8)
    assert not c.low_confidence(Signals(ritual=RITUAL_MIN, dense=0.0))
    assert c.low_confidence(Signals(ritual=RITUAL_MIN - 0.01, dense=0.5))
    assert not c.low_confidence(Signals(ritual=0.3, dense=0.85))  # a paraphrase the dense side vouches for
    assert c.low_confidence(Signals(ritual=0.0, dense=0.99))  # but never a question with no ritual word
    assert c.low_confidence(Signals(ritual=None, dense=None))
    assert c.low_confidence(Signals(ritual=1.0, dense=0.99, named=True, modern=True))  # today's manners


def test_old_manifest_calibration_is_not_trusted():
    assert Calibration.from_manifest({"confidence": {"dense_min": 0.3}}) is None
    c = Calibration.from_manifest({"confidence": {"version": CALIBRATION_VERSION, "dense_min": 0.7, "ritual_min": 0.4}})
    assert c == Calibration(dense_min=0.7, ritual_min=0.4)


def test_ritual_share_weighs_unknown_words_most():
    idf = {"安": 0.5, "旨": 4.0, "旅": 3.0, "酬": 2.0, "旅酬": 5.0, "装": 5.0}
    assert ritual_share(analyze("旨"), idf) == 1.0
    assert ritual_share(analyze("何謂旅酬"), idf) == 1.0
    assert ritual_share(analyze("如何安装Python"), idf) < RITUAL_MIN  # 安装 and python are not the corpus's words
    assert ritual_share(analyze("asdf"), idf) == 0.0
    assert ritual_share(analyze("脫鞋"), idf) == 1.0  # the glossary knows 脫鞋 (→ 說屨)


def test_a_seam_between_two_words_weighs_less_than_an_unknown_word():
    # 北站 of 朝北站 is no word (corpus or CC-CEDICT): weak evidence; 红烧 is a word the corpus never uses
    idf = {"堂": 3.0, "北": 1.0, "站": 2.0, "朝": 2.0, "红": 2.0, "烧": 2.0, "肉": 2.0, "堂下": 4.0}
    seam = ritual_share(analyze("堂下北站"), idf)
    word = ritual_share(analyze("堂下红烧"), idf)
    assert seam > word
    assert SEAM_WEIGHT < 1.0


def test_english_contractions_are_phrasing_not_content():
    # I'm of "I'm researching the music" says nothing of the topic: it weighs neither way
    idf = {"乐": 2.0}
    assert ritual_share(analyze("I'm asking about the music and the songs"), idf) == ritual_share(
        analyze("asking about the music and the songs"), idf)


def test_a_clause_about_the_asker_is_no_content():
    assert {"teenager", "museum"} <= preface_words("My teenager asked me this after a museum visit: were the singers blind?")
    assert "singers" not in preface_words("My teenager asked me this after a museum visit: were the singers blind?")
    # a clause that names the rite's things, or a place or a feast by name, is part of what is asked
    assert not preface_words("I'm hosting a dinner; who should I toast first?")
    assert not preface_words("For my historical novel set in Tudor England, how would a host greet guests?")
    # a remark after the question is an aside ("Seems oddly modest."), its glossary words aside
    assert {"seems", "oddly"} <= preface_words("Why did the host hang only stone chimes? Seems oddly modest.")
    assert "chimes" not in preface_words("Why did the host hang only stone chimes? Seems oddly modest.")
    assert "guest" not in preface_words("Who bows first? The guest, I think.")
    assert not preface_words("Who bows first? Why?")
    # a sentence about the asker before the question, whatever glossary word it holds (those still count as ritual)
    assert {"card", "game"} <= preface_words("I'm making a card game about toasting etiquette. Who started the round?")
    assert "round" not in preface_words("I'm making a card game about toasting etiquette. Who started the round?")
    assert not preface_words("I'm writing a novel set in Tudor England. How would a host greet guests?")
    # ... but China, the rite's own world, sets it nowhere else
    assert "scene" in preface_words("I'm writing a feast scene loosely based on ancient China. How many pieces?")
    idf = {"乐": 2.0}
    assert ritual_share(analyze("My son asked me this after a museum visit. Were the musicians blind, and who led them?"),
                        idf) == ritual_share(analyze("Were the musicians blind, and who led them?"), idf)


def test_a_chinese_question_is_read_past_its_clauses_about_the_asker():
    """Opening clauses of studying, asking or greeting, or telling who the asker is, are no topic; a clause naming a
    modern setting, another work or a word the glossary maps is part of what is asked, and the last clause is the
    question (qa.retrieval.remarks.chinese_preface)."""
    assert chinese_preface("老師上課講到這個，我沒聽懂，想請教：隔天客人去主人家道謝，要穿什麼衣服去？") == (
        "老師上課講到這個，我沒聽懂，想請教：", "隔天客人去主人家道謝，要穿什麼衣服去？")
    assert chinese_preface("最近在读《仪礼》，有个地方不明白，给乐师敬酒干嘛不洗杯子？")[1] == "给乐师敬酒干嘛不洗杯子？"
    assert chinese_preface("我是中文系的学生，主人为什么先自己喝？")[1] == "主人为什么先自己喝？"
    # a guess put as a question after it is read past as a guess is
    assert chinese_guess("主人為什麼洗爵？難道是怕髒？") == ("主人為什麼洗爵？", "難道是怕髒？")
    assert chinese_guess("賓何以拜洗？豈以尊主人歟？") == ("賓何以拜洗？", "豈以尊主人歟？")
    assert chinese_guess("是不是因為尊敬？") == ("是不是因為尊敬？", "")  # never the question itself
    # the friend it was talked over with, a classical 「未達」 or 「不敏」
    assert chinese_preface("昨與友人閒談，賓何以拜洗？")[1] == "賓何以拜洗？"
    assert chinese_preface("某於此節未達，介何以不啐酒？")[1] == "介何以不啐酒？"
    for text in ("老師講樂隊的樂師上台還要有人扶著，幹嘛要扶？",  # 樂隊, 樂師: its topic
                 "我们公司年会，请问老板敬酒要站起来吗？",  # a modern setting
                 "最近在看《甄嬛传》，清朝宫廷家宴上妃嫔的座位是按什么排的？",  # another work
                 "请问，为什么？",  # too little left to read alone
                 "主人为什么洗爵？"):
        assert chinese_preface(text) == ("", text), text
    idf = {"主": 1.0, "人": 1.0, "主人": 2.0, "洗": 1.0, "爵": 3.0}
    assert ritual_share(analyze("老师上课讲到这个，我没听懂，想请教：主人为什么洗爵？"), idf) == ritual_share(
        analyze("主人为什么洗爵？"), idf)


def test_a_preface_on_ritual_in_general_is_no_topic():
    """"a term paper on Zhou ritual": ritual, rite, ceremony (禮 alone in the glossary) in a clause about the asker say
    what he studies, not what he asks; an act the preface names (toasting) still counts."""
    idf = {"北": 1.0}
    assert ritual_share(analyze("I'm a student writing a paper on Zhou ritual, and I have a question. What causes the "
                                "northern lights?"), idf) == ritual_share(analyze("What causes the northern lights?"), idf)
    assert "question" in preface_words("Quick question from a book club member: how many mouth-organ players?")


def test_the_asked_part_leaves_out_what_the_question_says_about_the_asker():
    assert asked_part("I'm making a card game. Who started the round?") == "Who started the round?"
    assert asked_part("Asking for a game I'm designing: was there a set number of rounds?") == "was there a set number of rounds?"
    assert asked_part("Why only stone chimes? Seems oddly modest.") == "Why only stone chimes?"
    # a preface naming another world is the question's topic; a question with no preface is itself
    assert asked_part("I'm writing a novel set in Tudor England. How would a host greet guests?").startswith("I'm writing")
    assert asked_part("Who bows first, the host or the guest?") == "Who bows first, the host or the guest?"
    assert asked_part("The note says: who pours?") == "The note says: who pours?"
    # a last question that only guesses is an aside; a second question of its own is not
    assert asked_part("Why do they leave the shoes below the hall? Could it be a purity thing?") == (
        "Why do they leave the shoes below the hall?")
    assert "purity" in preface_words("Why do they leave the shoes below the hall? Could it be a purity thing?")
    assert asked_part("Who pours the wine? And who drinks first?") == "Who pours the wine? And who drinks first?"
    # a greeting and more than one sentence about the asker open it
    assert asked_part("Hello everyone! I'm new to the classics. I'm writing a novel. Who pours the wine?") == (
        "Who pours the wine?")
    assert asked_part("The host bows. Why does he bow?") == "The host bows. Why does he bow?"


def test_a_sure_classifier_needs_only_a_trace_of_the_rites_words():
    c = Calibration(dense_min=0.9)
    assert not c.low_confidence(Signals(ritual=TOPIC_SURE_FLOOR, dense=0.0, topic=TOPIC_SURE))
    assert c.low_confidence(Signals(ritual=TOPIC_SURE_FLOOR - 0.01, dense=0.0, topic=TOPIC_SURE))
    assert c.low_confidence(Signals(ritual=TOPIC_SURE_FLOOR, dense=0.0, topic=TOPIC_SURE - 0.01))


def test_an_english_question_naming_the_rite_in_everyday_words_needs_a_lower_verdict():
    c = Calibration(dense_min=0.9)
    lay = dict(ritual=0.3, dense=0.4, named=True, topic=ENGLISH_TOPIC_VOUCH)
    assert not c.low_confidence(Signals(**lay, english=True))  # "a single rack of stone chimes and no bells"
    assert c.low_confidence(Signals(**lay))  # a modern Chinese one still needs TOPIC_VOUCH
    assert c.low_confidence(Signals(**{**lay, "topic": ENGLISH_TOPIC_VOUCH - 0.01}, english=True))
    assert c.low_confidence(Signals(**{**lay, "named": False}, english=True))


def test_a_classical_question_is_vetoed_only_by_a_very_low_verdict():
    c = Calibration(dense_min=0.9)
    # 「地何以繞日而行？」: 文言 about something else, in characters the corpus also writes
    assert c.low_confidence(Signals(ritual=0.47, dense=0.38, topic=CLASSICAL_TOPIC_VETO - 0.01, classical=True))
    assert not c.low_confidence(Signals(ritual=0.47, dense=0.38, topic=CLASSICAL_TOPIC_VETO, classical=True))
    # 「此言『如初』，如何節也？」: above that the verdict on 文言 has no say, neither veto nor vouch
    assert not c.low_confidence(Signals(ritual=1.0, dense=0.5, topic=0.12, classical=True))
    assert c.low_confidence(Signals(ritual=0.2, dense=0.5, topic=0.99, classical=True))
    assert c.low_confidence(Signals(ritual=1.0, dense=0.5, topic=0.12))  # a modern question's low verdict vetoes


def test_named_rite_alone_is_on_topic():
    assert ritual_share(analyze("鄉飲酒禮"), {"乡": 1.0}) == 1.0


def test_noise_is_deterministic():
    assert noise_queries() == noise_queries() and len(noise_queries()) == 180


# ── the real corpus with the default encoder ────────────────────────────────────────


def test_manifest_carries_the_calibration(real_retriever):
    c = real_retriever.manifest["confidence"]
    assert c["version"] == CALIBRATION_VERSION and c["noise_ritual_above_min"] == 0
    assert c["noise_queries"] == len(noise_queries()) + len(offtopic_questions())


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_off_topic_modern_questions_are_low_confidence(real_retriever, question):
    assert all(h.low_confidence for h in real_retriever.search(question, 3))


@pytest.mark.parametrize("question", RITUAL)
def test_short_and_real_ritual_questions_stay_confident(real_retriever, question):
    assert not real_retriever.search(question, 3)[0].low_confidence


def test_calibration_questions_are_low_confidence(real_retriever):
    confident = [q for q, hits in zip(offtopic_questions(), real_retriever.batch_search(list(offtopic_questions()), 1))
                 if not hits[0].low_confidence]
    assert not confident


@pytest.mark.parametrize("question", [
    "我们公司聚餐时老板来敬酒，我该怎么回敬？",
    "At my company dinner, should the guest bow to the host first?",
    "Nowadays, does the host still toast every guest?",
    # another people's manners, now or of old, are no part of the corpus either (modern.tsv kind `country`)
    "At a Korean ancestral rite, who pours the first cup of wine?",
    "Did Greek hosts mix water into the wine for their guests?",
    "西餐宴會上主人先舉杯，客人要回敬嗎？",
])
def test_todays_manners_with_the_rites_words_are_low_confidence(real_retriever, question):
    """Set in today's world (公司, boss, nowadays) and naming nothing of the corpus itself: no passage
    answers it, however many of the rite's words (敬酒, host, guest, bow) it borrows."""
    assert real_retriever.bridge.modern_setting(real_retriever.understand(analyze(question)))
    assert not real_retriever.ask(question).found


@pytest.mark.parametrize("question", [
    "今人宴客，主人當坐何位？",
    "今之賓客飲酒，當奏何曲？",
    "今世賓客醉酒，主人當如何？",  # 今世 / 當世: the present age, in 文言
    "These days, where should the host of a dinner party sit?",
    "現在家裡請客，主人應該坐在哪裡？",  # 現在 opening the question
    "請問現在主人請客，要怎麼拜客人？",  # ... after 請問
    # ... or opening what follows a reader's preface, whatever rite the preface names
    "我最近在看講鄉飲酒禮的書，順便問一句：現在飯局上主人敬酒，客人要怎麼回敬？",
    "How much does a band cost for a company banquet?",  # "banquet" alone is an everyday word, not the 燕禮
])
def test_a_question_framed_in_the_present_is_today_s_manners_despite_everyday_ritual_words(real_retriever, question):
    """今人 / 今之 / these days ask about now: 主人, 賓客, 飲酒, host are everyday words as well as the
    rite's (CC-CEDICT has them), so they do not make the question about the corpus."""
    assert real_retriever.bridge.modern_setting(real_retriever.understand(analyze(question)))
    assert not real_retriever.ask(question).found


def test_a_loose_quotation_writing_a_term_only_the_rite_uses_quotes_the_corpus(real_retriever):
    """「堂廉上鋪席」 shares no four characters with the corpus (it says 設席于堂廉), but 堂廉 is a term
    only the rite uses (CC-CEDICT does not know it): the reader quotes this corpus loosely, not another text."""
    question = "「堂廉上鋪席」，堂廉是哪裡？"
    assert not real_retriever.bridge.quotes_elsewhere(real_retriever.understand(analyze(question)))
    assert real_retriever.ask(question).found
    assert real_retriever.bridge.quotes_elsewhere(real_retriever.understand(analyze("「學而時習之，不亦說乎」，何謂也？")))


def test_a_question_quoting_the_corpus_word_for_word_names_it(real_retriever):
    """「坐行之」 is three characters of the 燕禮's 經 (乃就席，坐行之): a question quoting it is about the corpus however
    it is phrased around the quotation (不知如何 reads as modern Chinese, whose classifier doubted it)."""
    understood = lambda t: real_retriever.understand(analyze(t))  # noqa: E731
    assert real_retriever.bridge.quotes_corpus(understood("「坐行之」，不知如何行法？"))
    assert real_retriever.ask("「坐行之」，不知如何行法？").found
    assert not real_retriever.bridge.quotes_corpus(understood("「坐行之」不知如何？".replace("坐行之", "打麻將")))
    assert not real_retriever.bridge.quotes_corpus(understood("「主人」是誰？"))  # two characters, an everyday word
    assert not real_retriever.bridge.quotes_corpus(understood("坐行之，不知如何行法？"))  # not quoted: read as usual


def test_a_quoted_summary_in_the_corpus_s_own_phrases_quotes_the_corpus(real_retriever):
    """「三揖三讓」: the 經 says 三揖 and 三讓 apart; a reader sums the rite up in its own phrases, quoting no other text."""
    understood = lambda t: real_retriever.understand(analyze(t))  # noqa: E731
    question = "乡饮酒礼中的“三揖三让”指什么？"
    assert not real_retriever.bridge.quotes_elsewhere(understood(question))
    a = real_retriever.ask(question)
    assert a.found and a.evidence[0].text.startswith("三揖者")
    assert real_retriever.bridge.quotes_elsewhere(understood("「學而時習之」何謂也？"))  # another text still is


def test_the_lord_called_the_boss_is_still_the_rite(real_retriever):
    # "boss" alone sets no question in today's world when the question is plainly about the lord
    question = "Why does the lord bow back to his ministers when they bow to him? Isn't he the boss?"
    assert real_retriever.bridge.modern_kinds(real_retriever.understand(analyze(question))) == {"work"}
    assert real_retriever.ask(question).found
    assert not real_retriever.ask("How deep should I bow to my boss at the company dinner?").found


def test_a_quoted_set_phrase_is_no_other_text(real_retriever):
    """「一醉方休」 is a set phrase of the language (CC-CEDICT has it) the asker uses, not a text quoted."""
    understood = lambda t: real_retriever.understand(analyze(t))  # noqa: E731
    assert not real_retriever.bridge.quotes_elsewhere(understood("燕禮上真的要喝到「一醉方休」嗎？"))
    assert real_retriever.bridge.quotes_elsewhere(understood("「學而時習之」何謂也？"))


def test_the_readers_own_modern_words_in_quotation_marks_are_no_other_text(real_retriever):
    """「回到位置」 is the reader's paraphrase of 反位 in modern words (回到, 位置: words the corpus never writes), not a
    text quoted; a classical line of another book still is."""
    understood = lambda t: real_retriever.understand(analyze(t))  # noqa: E731
    question = "賓最後說要「回到位置」，是回到台階下還是回到座位上？"
    assert not real_retriever.bridge.quotes_elsewhere(understood(question))
    assert real_retriever.ask(question).found
    assert real_retriever.bridge.quotes_elsewhere(understood("「有朋自遠方來」是誰說的？"))
    # a modern particle (了) is the reader's own words too
    assert not real_retriever.bridge.quotes_elsewhere(understood("坐下之後還要有人報告一聲「都坐好了」嗎？"))


def test_a_clause_ending_in_shi_before_xia_is_not_nowadays(real_retriever):
    """「…受敬酒時下酒菜…」: 時 ends one word and 下 opens the next; 時下 (nowadays) is no longer a present-day word."""
    q = real_retriever.understand(analyze("樂師受敬酒時下酒菜也是馬上送到嗎？跟主賓的待遇一樣嗎？"))
    assert "time" not in real_retriever.bridge.modern_kinds(q)


@pytest.mark.parametrize("question, other", [
    ("《詩經》裡的〈伐檀〉在說什麼？", True),  # a poem the corpus never mentions
    ("《紅樓夢》裡的宴會誰坐上座？", True),
    ("〈鹿鳴〉是什麼樣的詩？", False),  # sung in both rites
    ("《儀禮注疏》怎麼解釋燕禮的主人？", False),  # the corpus itself, and a rite of it
    ("《儀禮經傳通解》怎麼說？", False),  # a work on the 儀禮: its nearest passages are the corpus's
])
def test_a_work_the_corpus_never_mentions_is_another_text(real_retriever, question, other):
    assert real_retriever.bridge.names_other_work(real_retriever.understand(analyze(question))) is other
    if other:
        assert not real_retriever.ask(question).found


@pytest.mark.parametrize("question, classic", [
    ("經或言坐，或言跪，何別？", True),
    ("經文為何不言主人之服？", True),
    ("《孝經》云何？", False),  # another classic, by its name
    ("詩經云何", False),
])
def test_a_question_on_the_jing_itself_names_the_corpus(real_retriever, question, classic):
    q = real_retriever.understand(analyze(question))
    assert real_retriever.bridge.refers_to_classic(q) is classic
    if classic:
        assert real_retriever.bridge.names_ritual_term(q)
        assert real_retriever.ask(question).found


@pytest.mark.parametrize("question", [
    "今人行旅酬否？",  # 旅酬 is no everyday word: it names the corpus
    "鄭云如讀若今之若，何謂？",  # 今之 inside a quotation of the 注 places nothing in today's world
    "今人說鄉飲酒禮，其旨何在？",  # names a rite of the corpus
    "主人拜賓的規矩，現在還有嗎？",  # 現在 inside the question: "still", not today's manners
    "鄉飲酒禮的主人要拜賓幾次？現在的旅酬還是這樣嗎？",  # 現在 opening a sentence that names the corpus
])
def test_a_present_day_word_does_not_hide_a_question_about_the_corpus(real_retriever, question):
    assert not real_retriever.bridge.modern_setting(real_retriever.understand(analyze(question)))
    assert real_retriever.ask(question).found


@pytest.mark.parametrize("question", [
    "燕禮的座次跟現在公司年會有什麼不同？",  # names a rite of the corpus
    "現在公司的敬酒，跟旅酬有關係嗎？",  # names a ritual term of the corpus
    "Why does the guest bow to the host?",  # no modern setting
    "Is the toast of the Yan li anything like a Greek symposium?",  # names a rite of the corpus
    "Why does the guest go up by the western steps?",  # the west of the hall is no Western world
])
def test_a_question_naming_the_corpus_is_answered_even_in_a_modern_setting(real_retriever, question):
    assert not real_retriever.bridge.modern_setting(real_retriever.understand(analyze(question)))
    assert real_retriever.ask(question).found


@pytest.mark.parametrize("question", ["揖和拜到底有啥区别？我老是分不清", "獻和酬有什麼差別？", "拜和揖有什麼區別？"])
def test_asking_the_difference_of_two_terms_names_nothing_off_topic(real_retriever, question):
    """「有啥區別」, 「差別」, 「分不清」 frame a comparison; the two terms compared are the question."""
    assert real_retriever.ask(question).found


def test_foreign_english_words_are_those_the_rite_s_english_never_uses(real_retriever):
    from qa.retrieval.confidence import foreign_english

    def foreign(text: str) -> list[str]:
        return foreign_english(real_retriever.understand(analyze(text)), real_retriever.english_vocabulary,
                               real_retriever.shadow.stopwords)

    assert foreign("Why do football fans toast with beer cups after a goal?") == ["football", "beer"]
    assert foreign("Why does the host wash the cup before toasting the guest?") == []
    assert foreign("Why doesn't he useand the cup?") == []  # no English word: a typo is no evidence


@pytest.mark.parametrize("question", [
    "Why do football fans toast with beer cups after a goal?",
    "How do I wash red wine stains out of a tablecloth after guests leave?",
])
def test_everyday_english_in_the_rite_s_words_with_two_foreign_words_is_flagged(real_retriever, question):
    """host, guest, cup, toast name the rite in a lay question; beside two words the rite's English never
    uses (football, beer; stains, tablecloth) they do not, and those words weigh more in the share."""
    assert not real_retriever.named(real_retriever.understand(analyze(question)))
    assert not real_retriever.ask(question).found


def test_one_foreign_word_leaves_a_lay_question_named(real_retriever):
    question = "Why must the broth be ready before the host goes to fetch the guest?"
    query = real_retriever.understand(analyze(question))
    assert len(real_retriever.foreign_words(query)) == 1 and real_retriever.named(query)
    assert real_retriever.ask(question).found
