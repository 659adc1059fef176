"""qa.answering.sentences: sentence windows and the general signals that pick answering sentences."""

from __future__ import annotations

import pytest

from qa.answering.sentences import _candidates, scoring, select_sentences, split_sentences
from qa.corpus.units import LemmaUnit, ShuPart
from qa.retrieval.query import analyze
from qa.retrieval.retriever import Hit


def unit(id: str, jing: str, zhu: str = "", shu: str = "", xiyi: str = "", rite: str = "燕禮") -> LemmaUnit:
    work = "仪礼析疑" if id.startswith("xiyi") else "儀禮注疏"
    parts = (ShuPart("注", "", shu, header=""),) if shu else ()
    return LemmaUnit(id=id, work=work, rite=rite, source="t.txt", lines=(1, 2), section="經", jing=jing, zhu=zhu, shu=parts, xiyi=xiyi)


def hit(u: LemmaUnit, score: float) -> Hit:
    return Hit(unit=u, score=score, passages=(), low_confidence=False)


def texts(question: str, *hits: Hit) -> list[str]:
    return [c.text for c, _ in select_sentences(analyze(question), hits)]


# 燕禮 (001, lines 105–111): the 注 says why, the 經 only what.
XING = unit(
    "zhushu.yan.t01",
    "公坐取賓所媵觶，興。唯公所賜。",
    "至此又言興者，明公崇禮不倦也。今文觶又為觚。",
    "釋曰：自此盡“士旅酌卒”，論君為士舉旅之事。云“唯公所賜”者，辭與為大夫舉旅同也。",
)


def test_unpunctuated_text_without_final_particles_is_one_sentence():
    text = "乡饮乡射之酒有司及时所造故主人虽无告旨之义"
    assert split_sentences(text) == [(0, len(text))]


def test_an_unpunctuated_note_is_cut_after_final_particles():
    text = "主人已三卒觯矣而至是始荐何也诸侯之膳宰士也以为主人故崇之"
    parts = [text[s:e] for s, e in split_sentences(text)]
    assert parts == ["主人已三卒觯矣", "而至是始荐何也", "诸侯之膳宰士也", "以为主人故崇之"]
    assert "".join(parts) == text  # spans of the original, nothing altered


def test_a_why_question_gets_the_zhu_reason_not_the_jing_restated():
    got = texts("公取賓所媵觶，為什麼又說興？", hit(XING, 0.9))
    assert got[0].startswith("至此又言興者，明公崇禮不倦也。")
    assert "公坐取賓所媵觶，興。" not in got[0]


def test_a_where_question_takes_the_jing_that_names_the_place():
    u = unit("zhushu.xiangyin.t02", "主人揖，降。賓降，立于階西，當序，東面。", "主人將與介為禮，賓謙，不敢居堂上。", rite="鄉飲酒禮")
    assert "立于階西" in texts("主人揖降以後，賓降立在哪裡？", hit(u, 0.9))[0]


def test_an_overlapping_run_that_adds_the_parallel_half_widens_the_answer():
    u = unit(
        "zhushu.xiangyin.t03",
        "乃合樂周南關雎。",
        "鄉樂者，風也。小雅為諸侯之樂。鄉飲酒升歌小雅，禮盛者可以進取也。燕合鄉樂，禮輕者可以逮下也。",
        rite="鄉飲酒禮",
    )
    got = texts("鄉飲酒禮升歌小雅，燕禮合鄉樂，何以異？", hit(u, 0.9))
    assert any("禮盛者可以進取也。燕合鄉樂，禮輕者可以逮下也。" in t for t in got)


def test_a_unit_of_another_rite_yields_to_the_rite_asked_about():
    yan = unit("zhushu.yan.t04", "主人洗爵。", "洗爵，致潔敬也。")
    xiang = unit("zhushu.xiangyin.t04", "主人洗爵。", "洗爵，示潔也。", rite="鄉飲酒禮")
    got = texts("鄉飲酒禮主人為什麼洗爵？", hit(yan, 0.9), hit(xiang, 0.89))
    assert got[0] == "洗爵，示潔也。"


def test_the_commentary_on_the_jing_asked_about_wins_when_ranked_second():
    off = unit("zhushu.xiangyin.t05", "賓辭，主人對。", "對，答也。辭主人之酒。", rite="鄉飲酒禮")
    on = unit("zhushu.xiangyin.t06", "介受獻，祭，不嚌肺，不啐酒。", "不嚌啐，下賓。", rite="鄉飲酒禮")
    got = texts("介受獻，何以不嚌肺、不啐酒？", hit(off, 0.9), hit(on, 0.8))
    assert got[0] == "不嚌啐，下賓。"


# ── quotation-safe splitting, kind-aware first sentences ──────────────────────


def test_a_sentence_is_never_cut_inside_a_quotation():
    text = "賓及卿大夫皆興，對曰：「諾。敢不醉！」皆反坐。"
    parts = [text[a:b] for a, b in split_sentences(text)]
    assert parts == ["賓及卿大夫皆興，對曰：「諾。敢不醉！」", "皆反坐。"]
    # a 疏 quoting its 注 「X，Y也」 inside 云「…」者 stays one sentence
    shu = "云「酬之言周，忠信為周」者，此解主人將酬賓，先自飲之意。"
    assert [shu[a:b] for a, b in split_sentences(shu)] == [shu]


def test_a_long_quotation_may_still_be_cut():
    quoted = "甲乙丙丁。" * 20  # a whole passage of another book quoted in a 疏
    text = f"案某篇云「{quoted}」是也。"
    assert len(split_sentences(text)) > 3


def test_unbalanced_quotes_do_not_glue_the_text():
    text = "云「賓西階上。疑立也。主人答拜。"
    assert len(split_sentences(text)) == 3


YUE = unit(
    "zhushu.xiangyin.t77",
    "相者二人，皆左何瑟，後首，挎越，內弦，右手相。",
    "挎，持也。相瑟者則為之持瑟。越，瑟下孔也。內弦，側擔之者。",
    rite="鄉飲酒禮",
)


def test_what_is_answers_with_the_gloss_of_the_term_it_ends_on():
    """「挎越之越者何？」 asks about 越: its gloss comes first, not the gloss of 挎."""
    assert texts("挎越之越者何？", hit(YUE, 1.0))[0].startswith("越，瑟下孔也")
    assert texts("挎越之挎者何？", hit(YUE, 1.0))[0].startswith("挎，持也")


LAYERED = unit(
    "zhushu.xiangyin.t48",
    "主人實觶酬賓，阼階上北面坐奠觶，遂拜。",
    "酬，勸酒也。酬之言周，忠信為周。",
    "釋曰︰此解主人將酬賓先自飲之意。以其酬賓若不自先飲，主人不忠信，故先自飲，乃飲賓為酬也。",
    rite="鄉飲酒禮",
)


def test_a_named_layer_answers_first():
    first = texts("賈疏怎麼說主人酬賓先自飲？", hit(LAYERED, 1.0))[0]
    assert "以其酬賓" in first and "勸酒" not in first
    assert not texts("主人酬賓為什麼先自飲？", hit(LAYERED, 1.0))[0].startswith("釋曰")


def test_a_jing_the_question_quotes_yields_to_the_zhu_that_explains_it():
    # 鄉飲酒禮 (003): the question quotes the 經 and asks what it means; the 注 tells what it does
    u = unit(
        "zhushu.xiangyin.t20",
        "主人曰︰「請安于賓。」司正告于賓，賓禮辭，許。",
        "為賓欲去，留之，告賓於西階。",
        rite="鄉飲酒禮",
    )
    got = texts("司正告于賓「請安于賓」，這是要做什麼？", hit(u, 0.9))
    assert got[0].startswith("為賓欲去")


def test_echo_is_the_share_of_a_sentences_pairs_the_question_says():
    from qa.answering.sentences import echo

    assert echo("请安于宾", frozenset({"请安", "安于", "于宾"})) == 1.0
    assert echo("为宾欲去", frozenset({"请安", "安于", "于宾"})) == 0.0


def test_of_two_commentators_named_the_one_named_last_is_asked():
    u = unit(
        "zhushu.xiangyin.t21",
        "賓酬主人。",
        "凡旅酬者，少長以齒，終於沃盥者。",
        "釋曰：旅酬終於沃盥者，其實此時未及沃洗也。",
        rite="鄉飲酒禮",
    )
    got = [c for c, _ in select_sentences(analyze("鄭注說旅酬終於沃盥者，賈疏怎麼說？"), [hit(u, 0.9)])]
    assert got[0].layer == "shu"
    got = [c for c, _ in select_sentences(analyze("賈疏說旅酬終於沃盥者，鄭注怎麼說？"), [hit(u, 0.9)])]
    assert got[0].layer == "zhu"


@pytest.mark.parametrize("question, asked", [
    ("賈疏怎麼解釋鄭注所說的公或時未能舉？", "shu"),  # the commentator a question word follows, named first
    ("鄭注說旅酬終於沃盥者，賈疏怎麼說？", "shu"),
    ("方苞如何看鄭玄的說法？", "xiyi"),
    ("鄭玄和賈公彥都說了什麼？", "shu"),  # no question word after either: the one named last
    # no question word after either: the one who says or judges (X說… / X對…怎麼看) is asked
    ("賈疏說鄭玄注禮和注詩的時候說法不一樣，是怎麼回事？", "shu"),
    ("方苞對鄭注的說法怎麼看？", "xiyi"),
    ("賈疏怎麼說？", ""),  # one commentator: nothing to choose
    # in English, the subject of the question's verb or of a verb of judging; a note that "says" is quoted
    ("What does Fang Bao think of the sub-commentary's claim about the ministers?", "xiyi"),
    ("Zheng's note says the cup is washed; what does the sub-commentary add?", "shu"),
    ("How does Jia Gongyan explain Zheng Xuan's note on the mats?", "shu"),
    ("Zheng Xuan and Fang Bao both comment here: what do they say?", "xiyi"),  # neither asked: the one named last
])
def test_the_commentator_asked_is_the_one_a_question_word_follows(question, asked):
    from qa.retrieval.terms import asked_commentator, query_terms

    q = analyze(question)
    assert query_terms(q).asked_layer == asked
    explicit = asked_commentator(q.layers, q.norm, q.text)
    assert explicit in ("", asked)  # said, or guessed as the last named


def test_a_why_question_counts_a_gloss_less_than_a_reason(monkeypatch):
    import qa.answering.sentences as S

    u = unit("zhushu.xiangyin.t22", "眾賓旅酬，司正監之。", "旅酬，旅序相酬也。", "釋曰：至於眾賓，既不久習禮，恐其失禮，故須監之也。", rite="鄉飲酒禮")

    def ratio() -> float:
        got = {c.layer: s for c, s in select_sentences(analyze("眾賓旅酬，司正為什麼要監？"), [hit(u, 0.9)])}
        return got["shu"] / got["zhu"]

    assert S.WHY_GLOSS < 1.0
    halved = ratio()
    monkeypatch.setattr(S, "WHY_GLOSS", 1.0)
    assert halved > ratio()  # the reason gains on the gloss


def test_a_where_question_counts_a_gloss_only_when_it_names_the_place():
    """「所，薦西也」 answers 「其所者何處」; a gloss that names no place (「所，猶處也」) does not."""
    from qa.answering.sentences import _candidates, scoring

    def glosses(zhu: str) -> dict[str, float]:
        hits = [hit(unit("zhushu.xiangyin.t09", "賓坐奠觶于其所。", zhu, rite="鄉飲酒禮"), 0.9)]
        cands = _candidates(hits)
        ctx = scoring(analyze("賓奠觶于其所，所者何處？"), hits, cands)
        return {c.text: ctx.parts(c).gloss for c in cands if c.layer == "zhu"}

    assert glosses("所，薦西也。")["所，薦西也。"] > 0
    assert glosses("所，猶處也。")["所，猶處也。"] == 0


def test_the_hand_score_is_the_product_of_its_parts():
    """Parts.hand is what select_sentences ranks by: more coverage, more score; another rite, less."""
    from qa.answering.sentences import _candidates, scoring

    hits = [hit(XING, 0.9)]
    cands = _candidates(hits)
    ctx = scoring(analyze("公取賓所媵觶，為什麼又說興？"), hits, cands)
    best = max(cands, key=lambda c: ctx.parts(c).hand(ctx.terms))
    assert best.text.startswith("至此又言興者")
    p = ctx.parts(best)
    assert p.hand(ctx.terms) > 0 and p.explain and p.layer_prior == 1.0



def test_a_classical_he_ye_after_a_statement_asks_why_and_is_answered_by_the_reason():
    # 「…，何也」 after a whole clause asks why: the 注's 「X者，以Y」 reason leads, not a gloss of a word
    gloss = unit("zhushu.xiangyin.t10", "主人戒賓，賓拜辱。", "拜辱，出拜其自屈辱至己門也。", rite="鄉飲酒禮")
    reason = unit("zhushu.xiangyin.t11", "主人退，賓拜辱。", "去又拜辱者，以送謝之。", rite="鄉飲酒禮")
    got = texts("主人既去，賓復拜辱，何也？", hit(gloss, 0.9), hit(reason, 0.9))
    assert got[0] == "去又拜辱者，以送謝之。"
    # 「X何也」 on a bare term still asks what it is
    assert texts("拜辱何也？", hit(gloss, 0.9), hit(reason, 0.9))[0] == "拜辱，出拜其自屈辱至己門也。"



def test_a_why_not_question_counts_the_note_naming_the_omission():
    # the 注 opening with the act left undone (「不酢，…」) is the reason 「為什麼不酢」 asks for
    gloss = unit("zhushu.xiangyin.t12", "賓西階上答拜，主人坐取爵，酢賓。", "酢，報也。")
    omission = unit("zhushu.yan.t13", "卿受爵，不酢。", "不酢，辟君也。")
    hits = (hit(gloss, 0.9), hit(omission, 0.9))
    for question in ("卿為什麼不酢主人？", "Why doesn't the minister return the toast (酢)?"):
        query = analyze(question)
        cands = _candidates(hits)
        ctx = scoring(query, hits, cands)
        parts = {c.text: ctx.parts(c) for c in cands}
        assert parts["不酢，辟君也。"].omission and parts["不酢，辟君也。"].explain
        assert not parts["酢，報也。"].omission
        assert texts(question, *hits)[0] == "不酢，辟君也。"
    # the same note does not count as naming an omission for a question that asks no why-not
    query = analyze("卿為什麼酢主人？")
    ctx = scoring(query, hits, _candidates(hits))
    assert not any(ctx.parts(c).omission for c in _candidates(hits))


def test_a_where_question_takes_the_note_naming_the_place_over_a_jing_that_names_none():
    # the 經 restates the act asked about; its 注 says where it happens
    u = unit(
        "zhushu.xiangyin.t14",
        "眾工則不拜，受爵，祭，飲。辯有脯醢，不祭。",
        "亦受爵于西階上，薦之者於其位，在階東。",
        rite="鄉飲酒禮",
    )
    assert texts("其他樂工的脯醢放在哪裡？", hit(u, 0.9))[0].startswith("亦受爵于西階上，薦之者於其位，在階東。")


def test_a_quoted_jing_with_x_zhe_he_chu_is_answered_by_the_gloss_of_x():
    # 「經…其位，位者何處？」 asks what the quoted word points to: its gloss, not the 經 it quotes
    u = unit("zhushu.xiangyin.t15", "主人阼階上拜送，介坐奠爵于其位。", "位，階上西面也。", rite="鄉飲酒禮")
    assert texts("介坐奠爵于其位，位者何處？", hit(u, 0.9))[0] == "位，階上西面也。"


# ---------------------------------------------------------------- the questions each sentence answers

ZHU_TWO = unit("zhushu.xiangyin.t09", "主人坐取爵，實之賓之席前。", "爵，酒器也。賓之席前，西北面獻賓也。", rite="鄉飲酒禮")


def test_a_sentence_written_to_answer_a_lay_question_leads(monkeypatch):
    from qa.answering import sentences
    from qa.retrieval.renderings import SentenceWords, chinese_bag, english_bag
    from qa.retrieval.shadow import stopwords
    from qa.text.normalize import normalize

    monkeypatch.setattr(sentences, "WINDOW", 1)  # each sentence a candidate of its own (else the two short ones join)
    question = "In what direction does the host face when he hands the first drink over?"
    before = texts(question, hit(ZHU_TWO, 0.9))
    written = {(ZHU_TWO.id, normalize("賓之席前，西北面獻賓也。")): (
        SentenceWords(frozenset(english_bag([("Which direction does the host face when offering the guest a drink?", 1.0)],
                                            stopwords())), frozenset()),
        SentenceWords(frozenset(), frozenset(chinese_bag([("主人敬酒时朝哪个方向？", 1.0)]))))}
    monkeypatch.setattr(sentences, "sentence_question_words", lambda: written)
    after = texts(question, hit(ZHU_TWO, 0.9))
    assert after[0].startswith("賓之席前，西北面獻賓也") and after != before
    assert texts("主人敬酒的时候朝哪边？", hit(ZHU_TWO, 0.9))[0].startswith("賓之席前")
    monkeypatch.setattr(sentences, "ASKED_SHARE", 0.0)
    assert texts(question, hit(ZHU_TWO, 0.9)) == before  # the share is what moved it


def test_every_written_sentence_question_names_a_sentence_of_its_unit(real_retriever):
    from qa.corpus.renderings import sentence_questions
    from qa.text.normalize import normalize

    cut = {}
    for u in real_retriever.units:
        texts_ = [u.zhu, u.xiyi, *(p.text for p in u.shu)]
        cut[u.id] = {normalize(t[s:e]) for t in texts_ if t for s, e in split_sentences(t)}
    rows = sentence_questions()
    stray = [key for key in rows if key[1] not in cut.get(key[0], ())]
    assert not stray, stray[:3]  # a parser change that moves a sentence must come with the table
    assert all(q.en or q.zh for q in rows.values())
    assert len(rows) >= 0.9 * sum(len(v) for v in cut.values())


def test_a_how_much_question_is_answered_by_the_sentence_that_gives_the_measure():
    """The 注 on 「獻用爵，其他用觶」 says why the 爵 (「爵尊，不褻用之」), not how much each cup holds: asked how much,
    the 疏 sentence with the measures leads, though the 注 inherits its 經's words."""
    u = unit("zhushu.xiangyin.t20", "獻用爵，其他用觶。", "爵尊，不褻用之。",
             "釋曰：案上獻賓、獻眾賓等皆用一升之爵，至酬及旅酬之等皆用三升之觶。以獻為初相敬，故用爵。", rite="鄉飲酒禮")
    assert "一升之爵" in texts("獻酒用爵，其他用觶，兩種杯子各裝多少酒？", hit(u, 0.9))[0]
    assert texts("獻用爵，其他用觶，為什麼？", hit(u, 0.9))[0].startswith("爵尊")  # asked why, the 注 still leads


def test_fang_bao_s_own_question_opens_his_answer_and_answers_nothing_alone():
    """A 析疑 sentence ending 何也 poses Fang Bao's question: alone it is no candidate while his answer follows; a run
    may hold it (what it sets out to explain is often what was asked)."""
    from qa.answering.sentences import _unit_runs

    note = "上经公又行一爵不定之辞也此曰唯公所赐则公不自饮之辞也为大夫举旅不于献后而介于献工献笙之闲何也献主无时休息虽强力者亦倦矣"
    unit = LemmaUnit(id="xiyi.yan.9", work="儀禮析疑", rite="燕禮", source="x.txt", lines=(1, 1), section="經",
                     jing="公坐取賓所媵觶", xiyi=note)
    runs = [(run[-1][0], run[-1][-1]) for run in _unit_runs(unit)]  # (first sentence, last sentence) of each run
    asked = "为大夫举旅不于献后而介于献工献笙之闲何也"
    assert (asked, asked) not in runs  # alone it answers nothing
    assert any(first == asked and last != asked for first, last in runs)  # it opens one with the answer
    assert any(first != asked and last == asked for first, last in runs)  # and may close one
    # the last sentence of a note, with no answer after it, stays a candidate
    last = LemmaUnit(id="xiyi.yan.8", work="儀禮析疑", rite="燕禮", source="x.txt", lines=(1, 1), section="經",
                     jing="公坐取賓所媵觶", xiyi="上经公又行一爵不定之辞也为大夫举旅不于献后而介于献工献笙之闲何也")
    assert (asked, asked) in [(run[-1][0], run[-1][-1]) for run in _unit_runs(last)]


def test_asked_what_fang_bao_says_his_note_on_the_passage_ranked_first_answers():
    """Of two 析疑 notes in the hits, a question that names Fang Bao alone is answered from the one on the passage
    ranked first, whichever sentence the model took; a question naming no commentator keeps the model's choice."""
    from qa.answering.sentences import _commentators_own
    from qa.retrieval.terms import query_terms

    first = unit("xiyi.yan.t30", "小臣戒与者", xiyi="不言戒之之所其在朝者面戒以事未入者则使胥戒于家可也")
    other = unit("xiyi.yan.t31", "小臣纳工", xiyi="敖氏谓周官小臣四人此侯国不宜相工者亦四人窃疑持瑟而相者乃正与师")
    cands = _candidates([hit(first, 1.0), hit(other, 0.9)])
    took = next(i for i, c in enumerate(cands) if c.unit.id == other.id)
    asked = query_terms(analyze("方苞認為小臣怎麼通知參加燕禮的人？"))
    assert cands[_commentators_own(asked, first.id, cands, took)].unit.id == first.id
    plain = query_terms(analyze("小臣怎麼通知參加燕禮的人？"))
    assert _commentators_own(plain, first.id, cands, took) == took
