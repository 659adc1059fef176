"""qa.retrieval.terms: the words a question is matched on, their weights, and what kind of question it is."""

from __future__ import annotations

from qa.retrieval.query import analyze
from qa.retrieval.terms import HEAD_GLOSS, PART_GLOSS, _is_gloss_of, gloss_strength, jing_is_term, query_terms
from qa.text.normalize import normalize


def test_gloss_patterns_of_an_asked_term():
    t = query_terms(analyze("陔何義？"))
    assert _is_gloss_of("陔，陔夏也。", t)
    assert _is_gloss_of("陔之言戒也，終日燕飲。", t)
    assert not _is_gloss_of("降席，席西也。", t)  # a gloss, but not of what was asked
    t = query_terms(analyze("揖是什麼？"))
    assert _is_gloss_of("推手曰揖，引手曰厭。", t)


def test_a_one_character_gloss_inside_a_longer_phrase_is_not_asked_unless_a_meaning_is():
    # 「序」 in 「旅酬之序」 means order: the gloss of 序 as a wall answers nothing
    assert not _is_gloss_of("東西牆謂之序。", query_terms(analyze("旅酬之序若何？")))
    assert _is_gloss_of("東西牆謂之序。", query_terms(analyze("序是什麼意思？")))


def test_quoted_terms_and_corpus_words_in_english_lead():
    t = query_terms(analyze("放酒壺的「斯禁」是什麼器物？"))
    assert t.weights["禁"] > t.weights["壶"]
    e = query_terms(analyze("What does 媵觚 mean?"))
    assert e.meaning and e.weights["觚"] > 1.0


def test_kinds_of_question_are_recognised():
    assert query_terms(analyze("賓為什麼說旨？")).why
    assert query_terms(analyze("Why does the guest praise the wine?")).why
    assert query_terms(analyze("旨是什麼意思？")).meaning
    assert query_terms(analyze("介降，立于哪里？")).where
    assert query_terms(analyze("Where does the 介 stand?")).where
    assert query_terms(analyze("笙有幾人？")).count
    plain = query_terms(analyze("主人獻賓"))
    assert not (plain.why or plain.meaning or plain.where or plain.count)


def test_two_named_rites_are_terms_one_is_only_a_scope():
    both = query_terms(analyze("鄉飲酒禮升歌小雅，燕禮合鄉樂，何以異？"))
    assert both.rites == {"xiangyin", "yan"}
    assert "燕" in both.weights and "饮酒" in both.weights
    one = query_terms(analyze("燕禮中卿為什麼沒有俎？"))
    assert one.rites == {"yan"} and "燕" not in one.weights


def test_gloss_strength_whole_term_head_and_part():
    t = query_terms(analyze("What is 旅酬?"))
    assert t.meaning and t.asked == ("旅酬",)
    assert gloss_strength("旅酬，旅序相酬也。", t) == 1.0
    assert gloss_strength("旅，序也。", t) == HEAD_GLOSS  # the first character names the kind of drinking
    assert gloss_strength("酬，勸酒也。", t) == PART_GLOSS
    assert gloss_strength("賓以旅酬於西階上。", t) == 0.0  # names the term, glosses nothing
    t = query_terms(analyze("樂正是什麼官"))
    assert gloss_strength("樂正，於天子樂師也。", t) == 1.0 > gloss_strength("正，長也。", t) > 0
    # a gloss the 疏 quotes from a dictionary counts as one; a quoted 經 clause does not
    t = query_terms(analyze("“宾酢主人”的“酢”是什么意思？"))
    assert gloss_strength("云「將酢主人」者，案爾雅云︰「酢，報也。」", t) == 1.0
    assert gloss_strength("云「將酢主人」者，前得主人之獻。", t) == 0.0


def test_a_short_gloss_without_ye_names_what_the_term_is():
    t = query_terms(analyze("榮是什麼？"))
    assert gloss_strength("榮，屋翼。", t) == 1.0  # 「X，Y。」 of a few characters
    t = query_terms(analyze("賓是誰？"))
    assert gloss_strength("賓，西面。", t) == 0.0  # where someone faces is no gloss
    assert gloss_strength("賓，主人所獻之酒。", t) == 0.0  # too long for a gloss without 也


def test_a_gloss_describing_a_manner_ends_with_mao():
    t = query_terms(analyze("經云「賓西階上疑立」，疑者何？"))
    assert gloss_strength("疑，正立自定之貌。", t) == 1.0  # 「X，Y之貌」: how one stands when X
    assert gloss_strength("疑，讀為仡然從於趙盾之仡。", t) < 1.0  # a reading, not a manner


def test_a_gloss_saying_who_x_is_ends_with_zhe():
    t = query_terms(analyze("相是什麼人？"))
    assert gloss_strength("相，主人之吏，擯贊傳命者。", t) == 1.0  # 「X，Y者」: the one who …


def test_he_ye_after_a_clause_asks_why_after_a_term_asks_what():
    why = query_terms(analyze("主人既去，賓復拜辱，何也？"))
    assert why.why and not why.meaning
    what = query_terms(analyze("旅者何也？"))
    assert what.meaning and not what.why
    assert query_terms(analyze("旨何也？")).meaning


def test_a_why_not_question_is_negated_but_a_comparison_is_not():
    assert query_terms(analyze("介為什麼不嚌肺？")).negated
    assert query_terms(analyze("Why doesn't the host taste the wine?")).negated
    assert not query_terms(analyze("鄉飲酒禮和燕禮的獻賓有什麼不同？")).negated
    assert not query_terms(analyze("Why does the host taste the wine?")).negated


def test_colloquial_and_english_why_frames_ask_why():
    for question in ("燕礼为啥让大夫当宾？", "How come the host washes the cup again?", "賓干嘛要下堂？"):
        assert query_terms(analyze(question)).why, question


def test_frames_without_a_why_word_that_ask_a_reason_ask_why():
    """The intention (用意), the custom behind it (講究), a guessed cause (是不是因為…), a rhetorical 難道, "the
    point of": each asks a reason, and a reason clause should answer it first."""
    for question in ("客人走時奏的那首曲子有什麼用意？", "先洗手再洗杯子有什麼講究？", "請大家坐下是不是因為站累了？",
                     "難道骨頭也分貴賤？", "What is the point of the plain water?"):
        assert query_terms(analyze(question)).why, question
    assert not query_terms(analyze("主人洗杯子以後站在哪裡？")).why


def test_the_meaning_taken_from_an_act_asks_why_not_where():
    # 「何所取義」: 何所 here is no "where"; the meaning an act takes is its reason
    for question in ("設洗於阼階東南，何所取義？", "尊於房戶間，何取？"):
        t = query_terms(analyze(question))
        assert t.why and not t.where, question
    assert query_terms(analyze("賓何所立？")).where


def test_what_the_word_means_is_asked_classically_too():
    # 「X之X，其義云何？」 asks what the word means, and 其義 is no term of it; 「其義何在」 asks the purpose
    t = query_terms(analyze("旅酬之旅，其義云何？"))
    assert t.meaning and not t.why and "其义" not in analyze("旅酬之旅，其義云何？").segments
    assert query_terms(analyze("設洗於阼階東南，其義何在？")).why


def test_a_reasoning_that_ends_naming_the_term_glosses_it():
    """方苞's unpunctuated 「…羣萃而食于公所故谓之旅食也」 explains what 旅食 is, however long the reasoning."""
    terms = query_terms(analyze("方苞認為士旅食是什麼人？"))
    assert gloss_strength("盖升于司马而未授官之士虽未受职而已不家食又羣萃而食于公所故谓之旅食也", terms) > 0
    assert gloss_strength("注谓士旅食庶人在官者非也", terms) == 0


def test_how_far_asks_a_number():
    for question in ("水盆離堂有多遠？", "How far from the hall is the basin?"):
        assert query_terms(analyze(question)).count, question


def test_a_bare_na_asks_where_but_na_with_a_measure_word_asks_which():
    assert query_terms(analyze("他們的肉乾擺哪？")).where
    assert query_terms(analyze("主人坐哪？")).where
    assert not query_terms(analyze("合樂唱的是哪幾首？")).where
    assert not query_terms(analyze("是哪位官員？")).where


def test_what_for_frames_ask_what_a_thing_is_not_why():
    what = query_terms(analyze("司正是幹嘛的？"))
    assert what.meaning and not what.why
    term = query_terms(analyze("鄉先生何也？"))  # a term of a few characters before 何也
    assert term.meaning and not term.why


def test_in_what_order_questions_ask_an_order_and_an_order_sentence_says_it():
    from qa.retrieval.terms import says_kind

    order = query_terms(analyze("旅酬是按什么顺序喝的？从谁开始？"))
    assert order.order
    assert query_terms(analyze("When do the musicians come in?")).order
    assert not query_terms(analyze("Why, when the host washes the cup, does the guest come down?")).order
    assert says_kind(normalize("凡旅酬者，少長以齒，終於沃盥者"), order)
    assert not says_kind(normalize("旅，序也"), order)


def test_how_big_asks_a_number_and_a_measure_says_it():
    from qa.retrieval.terms import says_kind

    size = query_terms(analyze("How big were the drinking cups?"))
    assert size.count and query_terms(analyze("爵能装多大？")).count
    assert says_kind(normalize("皆用一升之爵，至酬及旅酬之等皆用三升之觶"), size)
    assert says_kind(normalize("其挺有五，通祭者六"), size)
    assert not says_kind(normalize("爵尊，不褻用之"), size)


def test_who_is_it_asks_an_identity():
    assert query_terms(analyze("那个帮忙扶乐工的人是谁？")).meaning
    assert query_terms(analyze("「若賓若長」之長，謂誰？")).meaning  # 謂誰: whom the word means


def test_a_short_jing_that_is_the_asked_term_is_explained_by_its_commentary():
    """「乃設折俎」 is the act of setting out the 折俎: its 注 「牲體枝解節折在俎」 explains the 折俎 though it is no
    「X，Y也」 gloss. A long 經 that mentions the term, or a short one about something else, is not."""
    terms = query_terms(analyze("折俎是什麼？"))
    assert jing_is_term(normalize("乃設折俎。"), terms)
    assert not jing_is_term(normalize("主人立于西階東，薦脯醢。介升席自北方，設折俎。"), terms)
    assert not jing_is_term(normalize("乃羞。"), terms)
    assert jing_is_term(normalize("羞庶羞。"), query_terms(analyze("羞庶羞是什么意思？")))


def test_zenme_before_a_verb_of_doing_asks_how_not_why():
    assert not query_terms(analyze("堂下站的人太多，一排站不下怎么办？")).why
    assert not query_terms(analyze("座位怎麼排的？")).why
    assert query_terms(analyze("客人怎么不回拜？")).why
    assert query_terms(analyze("樂工怎麼才四個？")).why


def test_what_an_act_is_for_or_stands_for_asks_why_and_names_nothing():
    """目的 / 意義 / 象徵 / 寓意 frame the question (目 of 目的 is no eye: 「無目」 of the blind musicians)."""
    q = analyze("乡饮酒礼的目的是什么？")
    assert query_terms(q).why and "目" not in q.core
    assert query_terms(analyze("這個環節象徵什麼？")).why


def test_the_purpose_asked_in_so_many_words_asks_why():
    for text in ("主人先盥手而後洗爵，其義安在？", "燕坐必脫屨，其理由何在？", "賓升席自西方，其故何也？", "只掛磬不掛鐘，這是什麼規矩？"):
        assert query_terms(analyze(text)).why, text


def test_more_where_and_what_frames():
    for text in ("燕禮賓席安在？", "徹俎之後，賓主立於何位？", "肉是從哪個台階端上去的？", "Which way does the host face?"):
        assert query_terms(analyze(text)).where, text
    for text in ("斯禁者何物也？", "什么叫宿戒？", "「羹定」怎么讲？", "一相者誰？", "What's a sheng?"):
        assert query_terms(analyze(text)).meaning, text


def test_an_elliptical_follow_up_asks_again_what_the_turn_before_asked():
    """「那「無算樂」呢？」 after 「…「無算爵」是什麼意思？」 asks what it means, "and the 介?" after a where question asks
    where; a follow-up that asks something of its own, says more, or asks a commentator's view keeps its own kind."""
    meaning = query_terms(analyze("那「無算樂」呢？", history=["鄉飲酒禮的「無算爵」是什麼意思？"]))
    assert meaning.meaning and not meaning.why
    where = query_terms(analyze("那介呢？", history=["鄉飲酒禮主人的席在哪裡？"]))
    assert where.where
    own = query_terms(analyze("那介為什麼不拜？", history=["鄉飲酒禮主人的席在哪裡？"]))
    assert own.why and not own.where
    longer = analyze("那众宾呢？他们的席子是连成一排的吗？", history=["乡饮酒礼里宾、主人、介的席位各在哪？"])
    assert longer.follows == "" and not query_terms(longer).where
    view = query_terms(analyze("然則卿無俎，方氏何說？", history=["燕禮卿的席在哪裡？"]))
    assert not view.where


def test_an_english_contrast_of_the_two_rites_weighs_how_the_text_names_them():
    """"In the District Symposium … but at the Banquet … why?": a sentence naming 燕 (燕禮、大射尊…) is the contrast, as
    when the rites are named in Chinese."""
    terms = query_terms(analyze("In the District Symposium the jars stand by the door, but at the Banquet by the east "
                                "pillar. Why?"))
    assert {"燕", "乡饮", "饮酒"} <= set(terms.weights)


def test_a_quoted_word_guessed_at_asks_what_it_means():
    """A question opening with a quoted word of the text and guessing what it is asks its meaning (a gloss answers);
    a guessed reason asks why, and 「…」是在哪 where."""
    for question in ("“坐挩手”是把手上的東西脫掉？", "「疑立」是猶猶豫豫地站著嗎？", "“宾厌介”这个厌是啥动作？"):
        assert query_terms(analyze(question)).meaning, question
    assert not query_terms(analyze("「告旨」是不是因為酒好？")).meaning
    assert not query_terms(analyze("「旅酬」是在哪一步？")).meaning


def test_zhi_wei_yan_asks_what_the_word_means():
    """「X之為言何也？」 is the classical way to ask a word's meaning: 之為言 names nothing, X is the term."""
    q = analyze("旨之為言何也？")
    assert q.segments == ("旨",) and query_terms(q).meaning


def test_what_someone_says_or_replies_asks_their_words():
    """「說了什麼」, 「怎麼回答」, 「其辭云何」, "what does he say", "how do they reply" ask the words someone speaks (the 經
    reports them); what a commentator says is his view (a layer question), and 「怎麼回拜」 asks how the bow is returned."""
    for question in ("燕禮上司正傳國君的話，說了什麼？", "賓怎麼回答主人？", "賓辭，其辭云何？",
                     "What does the guest say when he is asked to stay?", "how do they reply?"):
        assert query_terms(analyze(question)).speech, question
    for question in ("方苞說了什麼？", "賈疏怎麼說？", "What does the text say about the cups?", "众宾怎么回拜？",
                     "賓為什麼說旨？"):
        assert not query_terms(analyze(question)).speech, question


def test_a_bare_yan_opening_a_question_names_the_banquet():
    """「燕，…」 or 「燕則…」 opening a question (and 「於燕…」) names the 燕禮, as classical writers write it; not 燕子 or
    燕國."""
    for question in ("燕，諸侯之禮也，樂正何以先升？", "燕則賓亦告旨乎？", "於燕亦然乎？"):
        assert analyze(question).rites == ("yan",), question
    for question in ("燕子為什麼春天回來？", "燕國的都城在哪裡？"):
        assert analyze(question).rites == (), question


def test_zhe_he_ye_after_a_term_is_scaffolding():
    """「酬者何也？」 asks what 酬 is: 者何也 goes as one phrase, so 者 does not stay on the term (受酬者 is another)."""
    q = analyze("酬者何也？")
    assert q.segments == ("酬",) and query_terms(q).meaning
    assert analyze("旅酬者何哉？").segments == ("旅酬",)


def test_a_quarter_of_the_compass_says_a_place():
    """「降立于西方」 says where the helper stands: 西方 is a place for a where question."""
    from qa.retrieval.terms import says_kind

    terms = query_terms(analyze("扶樂工的人下堂以後站在哪裡？"))
    assert terms.where and says_kind(normalize("降立于西方，近其事。"), terms)


def test_a_number_of_people_is_matched_as_the_corpus_writes_it():
    """「四個人」, 「兩個人」, 「幾個人」 are matched as 四人, 二人, 幾人 (工四人, 二人舉觶); 「一個人」 is "someone", no count."""
    assert "四人" in analyze("燕禮的樂工為什麼只有四個人？").core
    assert "二人" in analyze("舉觶的兩個人是誰？").core
    assert "几人" in analyze("乐工有几个人？").core
    assert "一个人" in analyze("為什麼要另外找一個人來當司正？").core


def test_what_a_section_is_about_is_a_kind_of_question():
    for question in ("小臣又請媵爵者，此節論何事？", "這一段講的是什麼？", "What is this passage about?"):
        assert query_terms(analyze(question)).section, question
    assert not query_terms(analyze("賓為什麼說旨？")).section


def test_the_shu_reasons_for_what_the_text_leaves_unsaid_explain():
    """「此不言答，省文也」 and 「互文也」 say why the text leaves something unsaid: reasons for a why question."""
    from qa.retrieval.terms import explains

    assert explains(normalize("凡賓主行事，相報皆言答，此不言答，省文也。"), "shu")
    assert explains(normalize("彼此互文也。"), "shu")
    assert explains(normalize("凡工賤，不為之洗。"), "zhu")  # rank is a reason


def test_an_emendation_glosses_the_word_and_a_miswritten_word_asks_it():
    """「苟當作耉」 says what 苟 should be (a gloss of 苟); 「…是哪個字寫錯了」 asks it."""
    from qa.retrieval.terms import _gloss_candidates

    assert "苟" in _gloss_candidates("苟当作耉简编剥蚀或传写譌也")
    assert query_terms(analyze("「賓為苟敬」的「苟」是哪個字寫錯了？")).meaning


def test_a_modern_pronoun_is_no_term_asked():
    """他們 of 「是誰叫他們上堂入座的？」 stands for the 大夫: 「他，謂眾士也」 glosses no term asked; the text's 其他 is one."""
    assert gloss_strength("他，謂眾士也，亦升受爵，不拜。", query_terms(analyze("燕禮裡大夫都喝過酒以後，是誰叫他們上堂入座的？"))) == 0.0
    assert gloss_strength("他，謂眾士也，亦升受爵，不拜。", query_terms(analyze("「其他不拜」的「他」指的是誰？"))) > 0.0


def test_how_to_sign_up_or_learn_is_no_why_and_what_one_is_supposed_to_say_is_speech():
    """怎麼 before a verb of doing asks how (怎麼學, 怎麼報名, 怎麼讀); "what are the guests supposed to say back" asks the
    words said."""
    for text in ("笙要怎麼學？", "要怎麼報名參加？", "這個字怎麼讀？"):
        assert not query_terms(analyze(text)).why, text
    assert query_terms(analyze("The lord says nobody stays sober: what are the guests supposed to say back?")).speech
