"""UI strings in English and Korean, and how a request's language is chosen.

Order: ?lang= (remembered in a cookie), then the cookie, then Accept-Language, then English.
"""

from fastapi import Request

LANGS = ("en", "ko")
COOKIE = "lang"

STRINGS: dict[str, tuple[str, str]] = {
    "site": ("Incident Library", "Incident Library"),
    "tagline": (
        "Public infrastructure incident reports, told in English and Korean.",
        "공개된 인프라 장애 보고서를 영어와 한국어로 정리한 라이브러리입니다.",
    ),
    "nav.incidents": ("Incidents", "사례"),
    "nav.graph": ("Graph", "그래프"),
    "nav.patterns": ("Check my cluster", "내 클러스터 점검"),
    "nav.api": ("API", "API"),
    "skip": ("Skip to results", "결과로 건너뛰기"),
    "skip.content": ("Skip to content", "본문으로 건너뛰기"),
    "search.label": ("Search incidents", "사례 검색"),
    "search.placeholder": (
        "etcd, DNS timeouts, 전력 장애 …",
        "etcd, DNS 타임아웃, 전력 장애 …",
    ),
    "search.button": ("Search", "검색"),
    # search syntax and explanations (app/search.py, app/explain.py)
    "search.tips": ("Search tips", "검색 도움말"),
    "search.tips.exclude": (
        "leaves out incidents that mention etcd",
        "etcd 가 나오는 사례를 뺍니다",
    ),
    "search.tips.or": ("finds either word", "두 단어 중 하나만 있어도 찾습니다"),
    "search.tips.phrase": (
        "finds the words together, exactly as written (no spelling correction)",
        "따옴표 안의 말을 쓴 그대로 붙어 있는 것만 찾습니다 (오타 교정 없음)",
    ),
    "search.tips.relaxed": (
        "Incidents with all your words come first; when fewer than 10 have them all, those with most of them follow. Words like “the” or “after” are left out, misspelt words are corrected, and synonyms (k8s, 쿠버네티스) count as the same word.",
        "검색어를 모두 가진 사례가 먼저 나오고, 그런 사례가 10건보다 적으면 가장 많이 가진 사례가 뒤따릅니다. '후', '때문에' 같은 말은 빼고, 오타는 고치며, 동의어(k8s, 쿠버네티스)는 같은 말로 칩니다.",
    ),
    "search.why": ("Why:", "찾은 이유:"),
    # sentences with markup around their blanks; app/explain.py escapes the values
    "search.corrected": (
        'Showing results for <em>{s}</em> (search for <a href="{u}">{t}</a> instead).',
        '<em>{s}</em> 검색 결과입니다. (<a href="{u}">{t}</a> 그대로 찾기)',
    ),
    "search.relaxed_none": (
        "No incident has all of <em>{w}</em>; showing those with most of them.",
        "모든 검색어가 들어간 사례가 없어, 가장 많이 들어간 사례부터 보여 줍니다: <em>{w}</em>",
    ),
    "search.relaxed_few": (
        "Only {n} incidents have all of <em>{w}</em>; they come first, then those with at least {m} of the {k} words.",
        "모든 검색어가 들어간 사례 {n}건이 먼저 나오고, 그 뒤로 {k}개 중 {m}개 이상이 들어간 사례가 이어집니다: <em>{w}</em>",
    ),
    "search.synonyms": ("Synonyms searched too: {w}.", "동의어도 함께 찾았습니다: {w}"),
    "search.unmatched": ("No incident mentions {w}.", "어느 사례에도 나오지 않는 단어: {w}"),
    "search.ignored": (
        "Not used to decide the match (too common), only for the order: {w}.",
        "결과를 가르지 않고 순서에만 반영한 단어(너무 흔함): {w}",
    ),
    "search.excluded": (
        "Leaving out incidents that mention {w}.",
        "이 단어가 나오는 사례는 뺐습니다: {w}",
    ),
    "search.why.missing": (
        "{k} of {n} words; not found: {w}",
        "검색어 {n}개 중 {k}개, 없는 단어: {w}",
    ),
    "search.why.synonym": (
        "<em>{w}</em> as <em>{k}</em> (synonym)",
        "<em>{w}</em>: 동의어 <em>{k}</em>",
    ),
    "search.why.tag": (
        "<em>{w}</em>: matched the tag <em>{t}</em>",
        "<em>{w}</em>: 분류 <em>{t}</em> 일치",
    ),
    "search.why.alias": (
        "<em>{w}</em>: matched the tag <em>{t}</em> (alias {a})",
        "<em>{w}</em>: 분류 <em>{t}</em> (별칭 {a}) 일치",
    ),
    "applied": ("Applied filters", "적용된 필터"),
    "clear_all": ("Clear all", "모두 풀기"),
    "remove": ("Remove", "빼기"),
    "chip.mode.any": ("{label}", "{label}"),
    "chip.mode.+": ("also {label}", "{label}도 포함"),
    "chip.mode.-": ("not {label}", "{label} 제외"),
    "facet.legend": (
        "Numbers: incidents after a click. +N: incidents a click adds. −: exclude.",
        "숫자: 누르면 나오는 사례 수. +N: 눌러서 더해지는 사례 수. −: 제외.",
    ),
    "facet.adds": ("adds {n} incidents to the list", "목록에 사례 {n}건이 더해집니다"),
    "facet.exclude": ("Exclude {label} ({n} left)", "{label} 제외 ({n}건 남음)"),
    "recommended": ("Recommended filters", "추천 필터"),
    "recommended.empty": (
        "Search, and taxonomy values found in your words show up here.",
        "검색하면 검색어에서 찾은 분류 값이 여기에 나옵니다.",
    ),
    "dim.cause": ("Cause", "원인"),
    "dim.component": ("Component", "구성 요소"),
    "dim.symptom": ("Symptom", "증상"),
    "dim.factor": ("Contributing factor", "기여 요인"),
    "dim.org": ("Organisation", "조직"),
    "dim.q": ("Search", "검색어"),
    "dim.from": ("From", "시작 연도"),
    "dim.to": ("To", "끝 연도"),
    "dim.year": ("Year", "연도"),
    "show_all": ("Show all", "모두 보기"),
    "org.find": ("Find an organisation", "조직 찾기"),
    "org.go": ("Filter", "적용"),
    "years.apply": ("Apply", "적용"),
    "incidents": ("Incidents", "사례"),
    "count.incidents": ("{n} incidents", "사례 {n}건"),
    "range": ("{start}–{end} of {total}", "{total}건 중 {start}~{end}번째"),
    "none": ("No incidents match these filters.", "이 조건에 맞는 사례가 없습니다."),
    "notice.filters_only": (
        "Filters only, no search text. Newest first.",
        "검색어 없이 필터만 적용한 목록입니다. 최근 사례부터입니다.",
    ),
    "notice.all": (
        "All incidents, newest first.",
        "전체 사례 목록입니다. 최근 사례부터입니다.",
    ),
    "notice.search": (
        "Search text and filters. Most relevant first.",
        "검색어와 필터를 함께 적용한 목록입니다. 관련도 순입니다.",
    ),
    "notice.search_recent": (
        "Search text and filters. Newest first.",
        "검색어와 필터를 함께 적용한 목록입니다. 최근 사례부터입니다.",
    ),
    "notice.oldest": ("Oldest first.", "오래된 사례부터입니다."),
    "sort": ("Sort", "정렬"),
    "sort.recent": ("Newest first", "최근 순"),
    "sort.oldest": ("Oldest first", "오래된 순"),
    "sort.relevance": ("Most relevant", "관련도 순"),
    "page": ("Page", "페이지"),
    "prev": ("Previous", "이전"),
    "next": ("Next", "다음"),
    "pagination": ("Pages", "페이지 이동"),
    "top_components": (
        "Most frequent components in these {n} incidents",
        "이 {n}건에서 가장 많이 나오는 구성 요소",
    ),
    "by_cause": ("By cause", "원인별"),
    "see_all": ("All {n}", "{n}건 모두 보기"),
    "patterns.behind": (
        "Patterns behind these {n} incidents",
        "이 {n}건의 바탕이 된 패턴",
    ),
    "check_cluster": ("Check whether my cluster has it", "내 클러스터에도 있는지 확인하기"),
    "check.blurb": (
        "Read-only checks of your own Kubernetes cluster, grounded in these public reports.",
        "이 공개 보고서들을 근거로, 내 쿠버네티스 클러스터를 읽기만 하며 같은 틈이 있는지 점검합니다.",
    ),
    "sec.symptom": ("Symptom", "증상"),
    "sec.trigger": ("Trigger", "촉발"),
    "sec.cause": ("Cause", "원인"),
    "sec.component": ("Component", "구성 요소"),
    "sec.factor": ("Contributing factor", "기여 요인"),
    "sec.symptom_tags": ("Symptom tags", "증상 분류"),
    "sec.detection": ("Detection", "감지"),
    "sec.actions": ("Actions", "조치"),
    "sec.follow_ups": ("Follow-ups", "후속 조치"),
    "sec.lessons": ("Lessons", "교훈"),
    "sources": ("Sources", "출처"),
    "related": ("Related incidents", "관련 사례"),
    "patterns": ("Patterns", "패턴"),
    "back": ("Back to the list", "목록으로"),
    "lang.switch": ("한국어", "English"),
    "lang.label": ("Language", "언어"),
    "feed": ("Subscribe (Atom)", "구독(Atom)"),
    "export.csv": ("CSV", "CSV"),
    "export.json": ("JSON", "JSON"),
    "view.graph": ("See as a graph", "그래프로 보기"),
    "view.list": ("See as a list", "목록으로 보기"),
    "notice": ("Notice", "알림"),
    "error.title": ("Something is not right", "문제가 생겼습니다"),
    "error.404": ("Not found", "찾을 수 없습니다"),
    "error.400": ("Bad request", "잘못된 요청"),
    "footer": (
        "Every incident links to its public report. Summaries are our own words.",
        "모든 사례는 공개 보고서로 연결됩니다. 요약은 원문을 옮기지 않고 직접 쓴 글입니다.",
    ),
    "patterns.title": ("Check my cluster", "내 클러스터 점검"),
    "patterns.intro": (
        "Each pattern is a gap that caused public incidents. Its checks read your Kubernetes cluster without changing it and tell you whether the same gap is there.",
        "패턴마다 공개된 장애를 일으킨 틈 하나를 다룹니다. 점검 항목은 쿠버네티스 클러스터를 바꾸지 않고 읽기만 하며, 같은 틈이 있는지 알려 줍니다.",
    ),
    "patterns.incidents": ("Grounded in {n} incidents", "근거 사례 {n}건"),
    "patterns.checks": ("Checks", "점검 항목"),
    "patterns.manual": ("Manual checklist", "직접 확인할 항목"),
    "patterns.fix": ("How to fix it", "고치는 방법"),
    "patterns.why": ("Why it matters", "왜 중요한가"),
    "patterns.tags": ("Identified by", "분류"),
    "patterns.snapshot": ("Check a whole cluster at once", "클러스터 전체를 한 번에 점검하기"),
    "patterns.snapshot_help": (
        "Take a read-only snapshot (no Secrets), then run the checker locally or paste it into the checker page:",
        "읽기 전용 스냅숏(Secret 제외)을 만든 뒤, 로컬에서 점검기를 돌리거나 점검기 페이지에 붙여 넣으세요:",
    ),
    "check.reads": ("Reads", "읽는 리소스"),
    "check.condition": ("The gap is present when", "틈이 있다고 보는 조건"),
    "check.command": ("Run (read-only)", "실행할 명령 (읽기 전용)"),
    "check.how_to_read": ("How to read the output", "결과 읽는 법"),
    "check.severity": ("Severity", "심각도"),
    "check.page": ("Checker", "점검기"),
    "check.title": ("Check a cluster snapshot", "클러스터 스냅숏 점검"),
    "check.paste": ("Paste the JSON of the snapshot", "스냅숏 JSON 붙여 넣기"),
    "check.upload": ("or upload the file", "또는 파일 올리기"),
    "check.run": ("Check", "점검"),
    "check.private": (
        "The snapshot is checked in memory and never stored. Secrets are refused.",
        "스냅숏은 메모리에서만 점검하고 저장하지 않습니다. Secret 이 들어 있으면 거부합니다.",
    ),
    "check.findings": ("Findings", "발견 사항"),
    "check.none": ("No gap found in this snapshot.", "이 스냅숏에서는 틈을 찾지 못했습니다."),
    "check.not_evaluable": ("Not evaluable from this snapshot", "이 스냅숏으로는 판단할 수 없음"),
    "check.objects": ("Objects", "대상 오브젝트"),
    # checker page, issue 15 (app/routes/checks.py, templates/checks/detail.html)
    "check.paste_any": ("Paste the snapshot (JSON or YAML)", "스냅숏 붙여 넣기 (JSON 또는 YAML)"),
    "check.empty": (
        "Paste or upload a snapshot first.",
        "먼저 스냅숏을 붙여 넣거나 파일을 올리세요.",
    ),
    "check.too_large": (
        "The snapshot is larger than {mb} MB; check it with the command line instead.",
        "스냅숏이 {mb} MB 보다 큽니다. 명령줄 점검기로 점검하세요.",
    ),
    "check.error": ("This snapshot cannot be used", "이 스냅숏은 쓸 수 없습니다"),
    "check.summary": ("Summary", "요약"),
    "check.sum.gaps": ("Gaps", "틈"),
    "check.sum.checks_with_gaps": ("Checks with gaps", "틈이 있는 점검"),
    "check.sum.info": ("Info findings", "참고"),
    "check.sum.evaluated": ("Checks evaluated", "평가한 점검"),
    "check.sum.passed": ("Evaluated without findings", "발견 없이 평가됨"),
    "check.sum.not_evaluable": ("Not evaluable (not a pass)", "판단 불가 (통과가 아님)"),
    "check.sum.skipped_objects": (
        "Objects skipped or read with a caveat",
        "건너뛰었거나 주의해서 읽은 오브젝트",
    ),
    "check.partial": ("Evaluated on part of the cluster", "클러스터 일부만 평가함"),
    "check.warnings": (
        "Objects skipped or read with a caveat",
        "건너뛰었거나 주의해서 읽은 오브젝트",
    ),
    "check.scope.cluster": ("The whole cluster", "클러스터 전체"),
    "check.scope.node-pool": ("Node pool", "노드 풀"),
    "check.scope.storage": ("Storage", "스토리지"),
    # graph page (app/routes/graph.py)
    "graph.intro": (
        "{n} incidents. Each line joins two tags that appear together in incidents; its width is how many. Every circle and line is a link to those incidents.",
        "사례 {n}건. 선은 같은 사례에 함께 붙은 두 분류 값을 잇고, 선의 굵기는 그런 사례의 수입니다. 원과 선은 모두 해당 사례 목록으로 가는 링크입니다.",
    ),
    "graph.tabs": ("Graph views", "그래프 종류"),
    "graph.heading.cause-component": (
        "Graph: how causes lead to components",
        "그래프: 원인에서 구성 요소로",
    ),
    "graph.heading.cause-factor": (
        "Graph: which contributing factors come with each cause",
        "그래프: 원인별로 함께 나온 기여 요인",
    ),
    "graph.heading.cause-symptom": (
        "Graph: which symptoms each cause produced",
        "그래프: 원인별로 나타난 증상",
    ),
    "graph.heading.factor-component": (
        "Graph: which components each contributing factor touched",
        "그래프: 기여 요인별로 얽힌 구성 요소",
    ),
    "graph.heading.component-symptom": (
        "Graph: which symptoms each component showed",
        "그래프: 구성 요소별로 나타난 증상",
    ),
    "graph.heading.incident": (
        "Graph: each incident with its causes and components",
        "그래프: 사례별 원인과 구성 요소",
    ),
    "graph.min.auto": ("Automatic: {n}", "자동: {n}"),
    "graph.min.note": (
        "{n} lines of fewer than {min} incidents are not drawn.",
        "사례가 {min}건보다 적은 선 {n}개는 그리지 않았습니다.",
    ),
    "graph.min.why": (
        "Automatic keeps at most {max} lines, so the picture stays readable.",
        "자동은 그림이 읽히도록 선을 {max}개까지만 그립니다.",
    ),
    "graph.skip": ("Skip the picture", "그림 건너뛰기"),
    "graph.incidents": ("incidents", "건"),
    "graph.keys": (
        "The picture is one Tab stop: arrow keys move between its circles, Enter opens one. "
        "Every line is also in the table below.",
        "그림은 Tab 한 번으로 들어갑니다. 화살표 키로 원 사이를 옮겨 다니고 Enter로 엽니다. "
        "모든 선은 아래 표에도 있습니다.",
    ),
    "graph.list": ("The picture as a list", "그림을 목록으로"),
    "graph.unlinked": ("Without a line at this minimum", "이 기준에서 선이 없는 값"),
    "graph.all_in_list": ("All {n} incidents in the list", "사례 {n}건 모두 목록에서 보기"),
    "graph.all_in_list.one": ("The incident in the list", "목록에서 이 사례 보기"),
    "graph.preview.h": ("Graph of this result", "이 결과의 그래프"),
    "graph.preview.open": (
        "Open the graph of these {n} incidents",
        "사례 {n}건의 그래프 열기",
    ),
    "graph.preview.open.one": ("Open the graph of this incident", "이 사례의 그래프 열기"),
    "graph.preview.desc": (
        "The {n} strongest cause → component lines.",
        "가장 많이 이어진 원인 → 구성 요소 선 {n}개.",
    ),
    "graph.preview.views": ("Other graph views", "다른 그래프"),
    "graph.view.cause-component": ("Cause → component", "원인 → 구성 요소"),
    "graph.view.cause-factor": ("Cause → contributing factor", "원인 → 기여 요인"),
    "graph.view.cause-symptom": ("Cause → symptom", "원인 → 증상"),
    "graph.view.factor-component": ("Contributing factor → component", "기여 요인 → 구성 요소"),
    "graph.view.component-symptom": ("Component → symptom", "구성 요소 → 증상"),
    "graph.view.incident": ("Incidents", "사례"),
    "graph.kind.incident": ("Incident", "사례"),
    "graph.kind.term": ("Cause and component", "원인과 구성 요소"),
    "graph.node.title": ("{kind}: {label} — {n} incidents", "{kind}: {label} — 사례 {n}건"),
    "graph.incident.title": ("{label}", "{label}"),
    "graph.edge.title": ("{a} → {b}: {n} incidents", "{a} → {b}: 사례 {n}건"),
    "graph.hidden": ("{n} more {kind} not shown.", "나머지 {kind} {n}개는 표시하지 않았습니다."),
    "graph.plural.cause": ("causes", "원인"),
    "graph.plural.component": ("components", "구성 요소"),
    "graph.plural.symptom": ("symptoms", "증상"),
    "graph.plural.factor": ("contributing factors", "기여 요인"),
    "graph.hidden.incident": (
        "{n} more incidents not shown.",
        "나머지 사례 {n}건은 표시하지 않았습니다.",
    ),
    "graph.show_all": ("Show all", "모두 보기"),
    "graph.show_top": ("Show the top {n} only", "상위 {n}개만 보기"),
    "graph.min": ("Minimum incidents per line", "선으로 이을 최소 사례 수"),
    "graph.apply": ("Apply", "적용"),
    "graph.empty": ("No links to draw for these filters.", "이 조건에서는 그릴 연결이 없습니다."),
    "graph.table": ("The lines as a table", "선 목록을 표로 보기"),
    "graph.weight": ("Incidents", "사례 수"),
    "graph.filters": ("Filters", "필터"),
    "graph.clear": ("Graph of all incidents", "전체 사례 그래프"),
    "graph.as_json": ("This graph as JSON", "이 그래프를 JSON으로"),
    "library": ("{n} incidents in the library", "라이브러리의 사례 {n}건"),
    "sort.longest": ("Longest first", "오래 간 순"),
    "duration": ("Impact lasted {d}", "영향 {d}"),
    "review.full": (
        "Checked against the report on {date}; the report was read in full.",
        "{date}에 보고서와 대조했습니다. 보고서 전체를 읽었습니다.",
    ),
    "review.partial": (
        "Checked against the report on {date}; only part of it could be read: {part}.",
        "{date}에 보고서와 대조했습니다. 보고서의 일부만 읽을 수 있었습니다: {part}.",
    ),
    "review.none": ("Not yet checked against the report.", "아직 보고서와 대조하지 않았습니다."),
    "review.unread": (
        "Not re-checked against the report ({date}): {part}.",
        "보고서와 다시 대조하지 못했습니다({date}): {part}.",
    ),
    "source.copy": ("copy", "사본"),
}

# -- browsing UI (issue 13): singulars, filters panel, empty state, copy link, docs, checker ----
STRINGS.update(
    {
        # `{key}.one` is the form for n == 1 (see translate); Korean has no plural.
        "count.incidents.one": ("1 incident", "사례 1건"),
        "graph.intro.one": (
            "1 incident. Each line joins two tags that appear together in incidents; its width is how many. Every circle and line is a link to those incidents.",
            "사례 1건. 선은 같은 사례에 함께 붙은 두 분류 값을 잇고, 선의 굵기는 그런 사례의 수입니다. 원과 선은 모두 해당 사례 목록으로 가는 링크입니다.",
        ),
        "graph.node.title.one": ("{kind}: {label} — 1 incident", "{kind}: {label} — 사례 1건"),
        "graph.edge.title.one": ("{a} → {b}: 1 incident", "{a} → {b}: 사례 1건"),
        "graph.hidden.incident.one": (
            "1 more incident not shown.",
            "나머지 사례 1건은 표시하지 않았습니다.",
        ),
        "patterns.incidents.one": ("Grounded in 1 incident", "근거 사례 1건"),
        "patterns.behind.one": ("Patterns behind this incident", "이 사례의 바탕이 된 패턴"),
        "top_components.one": ("Components of this incident", "이 사례의 구성 요소"),
        "facet.adds.one": ("adds 1 incident to the list", "목록에 사례 1건이 더해집니다"),
        "see_all.one": ("The 1 incident", "1건 보기"),
        "library.one": ("1 incident in the library", "라이브러리의 사례 1건"),
        # the list page
        "filters": ("Filters", "필터"),
        "filters.applied": ("{n} applied", "{n}개 적용"),
        "filters.show_results": ("Show {n} incidents", "사례 {n}건 보기"),
        "filters.show_results.one": ("Show 1 incident", "사례 1건 보기"),
        "skip.filters": ("Skip to filters", "필터로 건너뛰기"),
        "facet.unexclude_hint": (
            "excluded; a click includes it again",
            "제외됨, 누르면 다시 포함합니다",
        ),
        "facet.members": ("Parts of {label} ({n})", "{label}의 하위 항목 ({n})"),
        "facet.exclude.one": ("Exclude {label} (1 left)", "{label} 제외 (1건 남음)"),
        "none.suggest": (
            "Remove one filter to get results:",
            "필터 하나를 빼면 결과가 나옵니다:",
        ),
        "none.suggest_item": ("{n} incidents", "사례 {n}건"),
        "none.suggest_item.one": ("1 incident", "사례 1건"),
        "none.clear": ("Clear all ({n} incidents)", "모두 풀기 (사례 {n}건)"),
        "export.csv_excel": ("CSV for Excel", "Excel용 CSV"),
        "copy.link": ("Copy link", "링크 복사"),
        "copy.done": ("Link copied", "링크를 복사했습니다"),
        "copy.failed": (
            "Copy failed: the link is in the address bar",
            "복사하지 못했습니다. 주소 표시줄의 링크를 쓰세요",
        ),
        "section.link": ("Link to this section: {label}", "이 항목으로 가는 링크: {label}"),
        "views": ("This list elsewhere", "이 목록을 다른 형식으로"),
        # API documentation (/docs)
        "docs.title": ("API", "API"),
        "docs.intro": (
            "Every page of the library has a JSON twin that takes the same filters. All endpoints are read-only GETs; the links below open them in the browser.",
            "라이브러리의 모든 페이지에는 같은 필터를 받는 JSON 판이 있습니다. 모든 엔드포인트는 읽기 전용 GET 이며, 아래 링크로 브라우저에서 바로 열 수 있습니다.",
        ),
        "docs.schema": ("The OpenAPI schema (openapi.json)", "OpenAPI 스키마 (openapi.json)"),
        "docs.endpoints": ("Endpoints", "엔드포인트"),
        "docs.models": ("Response shapes", "응답 형식"),
        "docs.parameters": ("Parameters", "매개변수"),
        "docs.responses": ("Responses", "응답"),
        "docs.name": ("Name", "이름"),
        "docs.in": ("In", "위치"),
        "docs.type": ("Type", "형식"),
        "docs.description": ("Description", "설명"),
        "docs.required": ("required", "필수"),
        "docs.status": ("Status", "상태"),
        "docs.media": ("Media type", "미디어 형식"),
        "docs.values": ("Values", "값"),
        "docs.more_values": ("… and {n} more", "… 외 {n}개"),
        "docs.try": ("Open", "열기"),
        "docs.field": ("Field", "필드"),
        "docs.english": ("(descriptions in English)", "(설명은 영어)"),
        # the checker page (/check)
        "check.summary": (
            "Gaps found: {gaps} · info: {info} · not evaluable: {not_evaluable}",
            "발견된 틈 {gaps}개 · 참고 {info}개 · 판단할 수 없음 {not_evaluable}개",
        ),
    }
)


def format_duration(minutes: int, lang: str) -> str:
    """90 -> "1 h 30 min" / "1시간 30분"; whole days for impacts of several days."""
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    units = (("d", "일"), ("h", "시간"), ("min", "분"))
    parts = [
        f"{value}{'' if lang == 'ko' else ' '}{unit[1] if lang == 'ko' else unit[0]}"
        for value, unit in zip((days, hours, mins), units, strict=True)
        if value
    ]
    return " ".join(parts)


def translate(key: str, lang: str, **values: object) -> str:
    """The string in `lang`, filled in; `{key}.one` is used when `n` is 1 ("1 incident")."""
    if values.get("n") == 1 and f"{key}.one" in STRINGS:
        key = f"{key}.one"
    pair = STRINGS.get(key)
    if pair is None:
        return key
    template = pair[1] if lang == "ko" else pair[0]
    return template.format(**values) if values else template


def choose_lang(request: Request, explicit: str = "") -> str:
    """The language for this request: explicit ?lang, cookie, Accept-Language, English."""
    if explicit in LANGS:
        return explicit
    cookie = request.cookies.get(COOKIE, "")
    if cookie in LANGS:
        return cookie
    header = request.headers.get("accept-language", "")
    best = ("en", -1.0)
    for part in header.split(","):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()[:2]
        quality = 1.0
        for piece in pieces[1:]:
            if piece.strip().startswith("q="):
                try:
                    quality = float(piece.strip()[2:])
                except ValueError:
                    quality = 0.0
        if tag in LANGS and quality > best[1]:
            best = (tag, quality)
    return best[0]
