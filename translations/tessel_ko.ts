<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko">
<context>
    <name>CpuPeak</name>
    <message>
        <source>The peak is unknown: the clock of this CPU could not be read.</source>
        <translation>피크 성능을 알 수 없습니다: 이 CPU의 클럭을 읽을 수 없습니다.</translation>
    </message>
    <message>
        <source>Peak = %1 cores × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s.
FLOP/cycle: %5 single-precision vectors, two fused multiply-add units per core.
Clock: %6.</source>
        <translation>피크 = 코어 %1개 × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s.
FLOP/cycle: %5 단정밀도 벡터, 코어당 FMA(융합 곱셈-덧셈) 장치 2개.
클럭: %6.</translation>
    </message>
    <message>
        <source>highest cpufreq maximum</source>
        <translation>cpufreq 최대값 중 가장 높은 값</translation>
    </message>
    <message>
        <source>&quot;cpu MHz&quot; in /proc/cpuinfo</source>
        <translation>/proc/cpuinfo의 &quot;cpu MHz&quot;</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>No lesson scripts in %1</source>
        <translation>%1에 실습 스크립트가 없습니다</translation>
    </message>
</context>
<context>
    <name>tessel::views</name>
    <message>
        <source>no such stage</source>
        <translation>해당 스테이지가 없습니다</translation>
    </message>
    <message>
        <source>the script has no name for the tensor of stage &apos;%1&apos;</source>
        <translation>스크립트에 스테이지 &apos;%1&apos;의 텐서 이름이 없습니다</translation>
    </message>
    <message>
        <source>choose a loop to split</source>
        <translation>split할 루프를 선택하세요</translation>
    </message>
    <message>
        <source>the split factor must be at least 1</source>
        <translation>split 계수는 1 이상이어야 합니다</translation>
    </message>
    <message>
        <source>choose the first of two loops to tile</source>
        <translation>tile할 두 루프 중 첫 번째 루프를 선택하세요</translation>
    </message>
    <message>
        <source>tile needs a second loop after &apos;%1&apos;</source>
        <translation>tile에는 &apos;%1&apos; 다음에 두 번째 루프가 필요합니다</translation>
    </message>
    <message>
        <source>the tile factors must be at least 1</source>
        <translation>tile 계수는 1 이상이어야 합니다</translation>
    </message>
    <message>
        <source>reorder needs at least two loops</source>
        <translation>reorder에는 루프가 두 개 이상 필요합니다</translation>
    </message>
    <message>
        <source>choose the outer of two loops to fuse</source>
        <translation>fuse할 두 루프 중 바깥쪽 루프를 선택하세요</translation>
    </message>
    <message>
        <source>fuse needs the next loop after &apos;%1&apos;</source>
        <translation>fuse에는 &apos;%1&apos; 바로 다음 루프가 필요합니다</translation>
    </message>
    <message>
        <source>choose a loop</source>
        <translation>루프를 선택하세요</translation>
    </message>
    <message>
        <source>choose another stage to compute &apos;%1&apos; at</source>
        <translation>&apos;%1&apos;을(를) 계산할 다른 스테이지를 선택하세요</translation>
    </message>
    <message>
        <source>choose a loop of stage &apos;%1&apos;</source>
        <translation>스테이지 &apos;%1&apos;의 루프를 선택하세요</translation>
    </message>
    <message>
        <source>unknown action</source>
        <translation>알 수 없는 동작</translation>
    </message>
</context>
<context>
    <name>tessel::views::CodeView</name>
    <message>
        <source>TE script</source>
        <translation>TE 스크립트</translation>
    </message>
    <message>
        <source>TIR</source>
        <translation>TIR</translation>
    </message>
    <message>
        <source>LLVM IR</source>
        <translation>LLVM IR</translation>
    </message>
    <message>
        <source>Assembly</source>
        <translation>어셈블리</translation>
    </message>
    <message>
        <source>C</source>
        <translation>C</translation>
    </message>
    <message>
        <source>Select a fused function in the graph, or open a .te script.</source>
        <translation>그래프에서 융합 함수를 선택하거나 .te 스크립트를 여세요.</translation>
    </message>
    <message>
        <source>Before optimisation</source>
        <translation>최적화 전</translation>
    </message>
    <message>
        <source>Optimised</source>
        <translation>최적화 후</translation>
    </message>
    <message>
        <source>Show the LLVM IR as generated from the TIR, or after LLVM&apos;s optimisation</source>
        <translation>TIR에서 생성된 그대로의 LLVM IR 또는 LLVM 최적화를 거친 LLVM IR을 표시합니다</translation>
    </message>
    <message>
        <source>Show or hide the %1 pane</source>
        <translation>%1 창 표시 또는 숨기기</translation>
    </message>
    <message>
        <source># This function has no TE script.</source>
        <translation># 이 함수에는 TE 스크립트가 없습니다.</translation>
    </message>
    <message>
        <source>Linking the lines of %1</source>
        <translation>%1의 줄 연결 중</translation>
    </message>
    <message>
        <source>There is no text to link.</source>
        <translation>연결할 텍스트가 없습니다.</translation>
    </message>
    <message>
        <source>Lowering recorded no script lines for this function.</source>
        <translation>로워링이 이 함수의 스크립트 줄을 기록하지 않았습니다.</translation>
    </message>
    <message>
        <source>The script is not the one lowering recorded the lines of.</source>
        <translation>이 스크립트는 로워링이 줄을 기록한 스크립트가 아닙니다.</translation>
    </message>
    <message>
        <source>Nothing in it matches a line of the TIR.</source>
        <translation>TIR의 어떤 줄과도 일치하는 내용이 없습니다.</translation>
    </message>
    <message>
        <source>not linked</source>
        <translation>연결 안 됨</translation>
    </message>
    <message>
        <source>linked by records</source>
        <translation>기록으로 연결됨</translation>
    </message>
    <message>
        <source>Lowering recorded where the script made and changed every stage and loop: each script line links to the TIR it made.</source>
        <translation>로워링이 스크립트가 각 스테이지와 루프를 만들고 바꾼 위치를 기록했습니다: 스크립트의 각 줄은 그 줄이 만든 TIR에 연결됩니다.</translation>
    </message>
    <message>
        <source>linked by line table</source>
        <translation>줄 테이블로 연결됨</translation>
    </message>
    <message>
        <source>The C backend records, for every line it prints, the TIR statement it came from.</source>
        <translation>C 백엔드는 출력하는 모든 줄마다 그 줄이 나온 TIR 구문을 기록합니다.</translation>
    </message>
    <message>
        <source>Could not link the code view&apos;s lines: %1</source>
        <translation>코드 보기의 줄을 연결할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Panes:</source>
        <translation>창:</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>CUDA C</source>
        <translation>CUDA C</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>대상:</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>Show the PTX LLVM wrote, or the SASS the GPU runs (ptxas and nvdisasm of the CUDA toolkit)</source>
        <translation>LLVM이 작성한 PTX 또는 GPU가 실행하는 SASS(CUDA 툴킷의 ptxas와 nvdisasm)를 표시합니다</translation>
    </message>
    <message>
        <source>For a GPU the TIR pane shows the kernels split from the function; the script&apos;s lines are recorded for the function&apos;s TIR before the split.</source>
        <translation>GPU에서는 TIR 창에 함수에서 분리된 커널이 표시됩니다. 스크립트의 줄은 분리 전 함수의 TIR에 대해 기록됩니다.</translation>
    </message>
    <message>
        <source>SASS has no line table back to the PTX here: click the PTX for links.</source>
        <translation>여기서는 SASS에서 PTX로 돌아가는 줄 표가 없습니다. 연결을 보려면 PTX를 클릭하십시오.</translation>
    </message>
    <message>
        <source>Assembling the PTX with ptxas and disassembling it with nvdisasm…</source>
        <translation>ptxas로 PTX를 어셈블하고 nvdisasm으로 디스어셈블하는 중…</translation>
    </message>
    <message>
        <source>Disassembling the SASS of %1</source>
        <translation>%1의 SASS 디스어셈블 중</translation>
    </message>
    <message>
        <source>nvdisasm printed nothing.</source>
        <translation>nvdisasm이 아무것도 출력하지 않았습니다.</translation>
    </message>
    <message>
        <source>No SASS: %1</source>
        <translation>SASS 없음: %1</translation>
    </message>
    <message>
        <source># The assembly is being made: it follows the LLVM IR in a moment.</source>
        <translation># 어셈블리를 만드는 중입니다: 곧 LLVM IR에 이어 표시됩니다.</translation>
    </message>
    <message>
        <source>being made</source>
        <translation>만드는 중</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareChart</name>
    <message>
        <source>Milliseconds per run of the model, per fused function and end to end, for side A and side B (log scale). Beside each pair: B&apos;s time divided by A&apos;s, green where B is faster.</source>
        <translation>A 쪽과 B 쪽에서 모델 1회 실행당 걸린 시간(ms), 융합 함수별 및 모델 전체 (로그 스케일). 각 쌍 옆의 값은 B의 시간을 A의 시간으로 나눈 것이며, B가 더 빠르면 녹색입니다.</translation>
    </message>
    <message>
        <source>ms per run of the model (log scale)</source>
        <translation>모델 1회 실행당 ms (로그 스케일)</translation>
    </message>
    <message>
        <source>end to end</source>
        <translation>모델 전체</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message numerus="yes">
        <source>B / A per fused function and end to end: below 1, B is faster (median of %n round(s))</source>
        <translation>
            <numerusform>융합 함수별 및 모델 전체의 B / A: 1보다 작으면 B가 더 빠름 (라운드 %n회의 중앙값)</numerusform>
        </translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>No comparison yet: choose sides A and B and press Run.</source>
        <translation>아직 비교 결과가 없습니다: A 쪽과 B 쪽을 고른 뒤 실행을 누르세요.</translation>
    </message>
    <message>
        <source>only on A</source>
        <translation>A에만 있음</translation>
    </message>
    <message>
        <source>only on B</source>
        <translation>B에만 있음</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareSession</name>
    <message>
        <source>untuned</source>
        <translation>튜닝 안 함</translation>
    </message>
    <message>
        <source>tuned (chosen configurations)</source>
        <translation>튜닝됨 (선택한 구성)</translation>
    </message>
    <message>
        <source>(no records file)</source>
        <translation>(기록 파일 없음)</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation> (%1에서 실행)</translation>
    </message>
    <message numerus="yes">
        <source>, %n thread(s)</source>
        <translation>
            <numerusform>, 스레드 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a model to compare it untuned and tuned.</source>
        <translation>튜닝 전과 후를 비교하려면 모델을 여세요.</translation>
    </message>
    <message>
        <source>Side %1: the model compiles with the default schedules (Run &gt; Tuned Configurations): choose tuned configurations there, or a records file here.</source>
        <translation>%1 쪽: 모델이 기본 스케줄로 컴파일됩니다 (실행 &gt; 튜닝된 구성): 그곳에서 튜닝된 구성을 고르거나, 여기서 기록 파일을 고르세요.</translation>
    </message>
    <message>
        <source>Choose a records file for side %1.</source>
        <translation>%1 쪽의 기록 파일을 고르세요.</translation>
    </message>
    <message>
        <source>Side %1: the Tuning view&apos;s records file %2 does not exist yet: tune first, or choose a records file.</source>
        <translation>%1 쪽: 튜닝 보기의 기록 파일 %2이(가) 아직 없습니다: 먼저 튜닝하거나 기록 파일을 고르세요.</translation>
    </message>
    <message>
        <source>Side %1: no records file %2.</source>
        <translation>%1 쪽: 기록 파일 %2이(가) 없습니다.</translation>
    </message>
    <message>
        <source>Cannot read the input shapes: %1</source>
        <translation>입력 형상을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Comparing %1 against %2…</source>
        <translation>%1와(과) %2 비교 중…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>취소하는 중…</translation>
    </message>
    <message>
        <source>The comparison failed: %1</source>
        <translation>비교 실패: %1</translation>
    </message>
    <message>
        <source>Compare: %1</source>
        <translation>비교: %1</translation>
    </message>
    <message numerus="yes">
        <source>end to end A %1 ms, B %2 ms, B/A %3 (median of %n round(s))</source>
        <translation>
            <numerusform>모델 전체 A %1 ms, B %2 ms, B/A %3 (라운드 %n회의 중앙값)</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled: %1</source>
        <translation>취소됨: %1</translation>
    </message>
    <message>
        <source>Cancelled before the first round.</source>
        <translation>첫 라운드 전에 취소되었습니다.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Done: %1; the outputs agree.</source>
        <translation>완료: %1; 출력이 일치합니다.</translation>
    </message>
    <message>
        <source>Nothing to export yet: run a comparison first.</source>
        <translation>아직 내보낼 내용이 없습니다: 먼저 비교를 실행하세요.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1을(를) 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>%1에 저장했습니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareTable</name>
    <message>
        <source>end to end</source>
        <translation>모델 전체</translation>
    </message>
    <message>
        <source>only on B</source>
        <translation>B에만 있음</translation>
    </message>
    <message>
        <source>only on A</source>
        <translation>A에만 있음</translation>
    </message>
    <message>
        <source>B&apos;s time divided by A&apos;s: below 1, B is faster.</source>
        <translation>B의 시간을 A의 시간으로 나눈 값: 1보다 작으면 B가 더 빠릅니다.</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>함수</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>호출 수</translation>
    </message>
    <message>
        <source>A (ms)</source>
        <translation>A (ms)</translation>
    </message>
    <message>
        <source>B (ms)</source>
        <translation>B (ms)</translation>
    </message>
    <message>
        <source>A GFLOP/s</source>
        <translation>A GFLOP/s</translation>
    </message>
    <message>
        <source>B GFLOP/s</source>
        <translation>B GFLOP/s</translation>
    </message>
    <message>
        <source>B / A</source>
        <translation>B / A</translation>
    </message>
    <message>
        <source>Tuned</source>
        <translation>튜닝됨</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareView</name>
    <message>
        <source>Schedules</source>
        <translation>스케줄</translation>
    </message>
    <message>
        <source>Records file</source>
        <translation>기록 파일</translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation>실행 장치</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>스레드</translation>
    </message>
    <message>
        <source>Rounds:</source>
        <translation>라운드:</translation>
    </message>
    <message>
        <source>Rounds of A then B, each timed whole and per function; the figures are medians.</source>
        <translation>A 다음 B 순서로 도는 라운드 수입니다. 라운드마다 모델 전체와 함수별 시간을 재며, 표시되는 수치는 중앙값입니다.</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <source>PDF…</source>
        <translation>PDF…</translation>
    </message>
    <message>
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <source>Export the chart as a PNG image</source>
        <translation>차트를 PNG 이미지로 내보냅니다</translation>
    </message>
    <message>
        <source>Export the chart as a PDF document</source>
        <translation>차트를 PDF 문서로 내보냅니다</translation>
    </message>
    <message>
        <source>Export the figures as CSV, at full precision</source>
        <translation>수치를 전체 정밀도로 CSV에 내보냅니다</translation>
    </message>
    <message>
        <source>Export:</source>
        <translation>내보내기:</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 문서 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 파일 (*.csv)</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>시작하는 중…</translation>
    </message>
    <message>
        <source>Choose what A and B are, then Run: both are measured in one run, interleaved.</source>
        <translation>A와 B를 각각 무엇으로 할지 고른 뒤 실행하세요: 둘은 한 번의 실행에서 번갈아 측정됩니다.</translation>
    </message>
    <message>
        <source>Untuned (default schedules)</source>
        <translation>튜닝 안 함 (기본 스케줄)</translation>
    </message>
    <message>
        <source>Tuned: Run &gt; Tuned Configurations</source>
        <translation>튜닝됨: 실행 &gt; 튜닝된 구성</translation>
    </message>
    <message>
        <source>Tuned: the Tuning view&apos;s records</source>
        <translation>튜닝됨: 튜닝 보기의 기록</translation>
    </message>
    <message>
        <source>Tuned: a records file</source>
        <translation>튜닝됨: 기록 파일</translation>
    </message>
    <message>
        <source>a .jsonl records file</source>
        <translation>.jsonl 기록 파일</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>This machine, or a server or tracker key of the Devices panel</source>
        <translation>이 컴퓨터, 또는 장치 패널의 서버나 트래커 키</translation>
    </message>
    <message>
        <source>default</source>
        <translation>기본값</translation>
    </message>
    <message>
        <source>Records file for side %1</source>
        <translation>%1 쪽 기록 파일</translation>
    </message>
    <message>
        <source>Tuning records (*.jsonl *.json);;All files (*)</source>
        <translation>튜닝 기록 (*.jsonl *.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Compile both sides and measure them in one run</source>
        <translation>양쪽을 컴파일하고 한 번의 실행에서 측정합니다</translation>
    </message>
    <message>
        <source>Open a model first</source>
        <translation>먼저 모델을 여세요</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1을(를) 쓸 수 없습니다.</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>%1에 저장했습니다.</translation>
    </message>
    <message>
        <source>Export the comparison</source>
        <translation>비교 결과 내보내기</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceChoice</name>
    <message>
        <source>server %1</source>
        <translation>서버 %1</translation>
    </message>
    <message>
        <source>%1 via tracker %2</source>
        <translation>트래커 %2를 통한 %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>did not build</source>
        <translation>빌드되지 않음</translation>
    </message>
    <message>
        <source>did not load</source>
        <translation>로드되지 않음</translation>
    </message>
    <message>
        <source>runtime error</source>
        <translation>런타임 오류</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>비정상 종료</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>시간 초과</translation>
    </message>
    <message>
        <source>wrong result</source>
        <translation>잘못된 결과</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>취소됨</translation>
    </message>
    <message>
        <source>device unreachable</source>
        <translation>장치에 연결할 수 없음</translation>
    </message>
    <message>
        <source>device unreachable: this machine&apos;s tessel-rpc server did not answer (%1). Check that build/bin/tessel-rpc exists and runs; Run again starts it anew.</source>
        <translation>장치에 연결할 수 없음: 이 컴퓨터의 tessel-rpc 서버가 응답하지 않았습니다 (%1). build/bin/tessel-rpc가 있고 실행되는지 확인하십시오. 다시 실행하면 서버를 새로 시작합니다.</translation>
    </message>
    <message>
        <source>device unreachable: %1 did not give a server of key %2 (%3). Check in the Devices panel that the tracker runs and has a free server of that key, or choose Use This Machine.</source>
        <translation>장치에 연결할 수 없음: %1이(가) 키 %2의 서버를 내주지 않았습니다 (%3). 장치 패널에서 트래커가 실행 중이고 그 키의 빈 서버가 있는지 확인하거나, 이 컴퓨터 사용을 고르십시오.</translation>
    </message>
    <message>
        <source>device unreachable: nothing answered at %1 (%2). Check that tessel-rpc server runs there (the Devices panel shows its state), or choose Use This Machine.</source>
        <translation>장치에 연결할 수 없음: %1에서 아무것도 응답하지 않았습니다 (%2). 그곳에서 tessel-rpc server가 실행 중인지 확인하거나 (장치 패널에 상태가 보입니다), 이 컴퓨터 사용을 고르십시오.</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceList</name>
    <message>
        <source>%1 s ago</source>
        <translation>%1초 전</translation>
    </message>
    <message>
        <source>1 core</source>
        <translation>코어 1개</translation>
    </message>
    <message>
        <source>%1 cores</source>
        <translation>코어 %1개</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>주소</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Total / free / pending</source>
        <translation>전체 / 사용 가능 / 대기</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>왕복 시간</translation>
    </message>
    <message>
        <source>Last heartbeat</source>
        <translation>마지막 하트비트</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>Tracker</source>
        <translation>트래커</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>서버</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>연결 중…</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>연결할 수 없음</translation>
    </message>
    <message>
        <source>online</source>
        <translation>온라인</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>free</source>
        <translation>사용 가능</translation>
    </message>
    <message>
        <source>all held</source>
        <translation>모두 사용 중</translation>
    </message>
    <message>
        <source>no server</source>
        <translation>서버 없음</translation>
    </message>
    <message>
        <source>server #%1</source>
        <translation>서버 #%1</translation>
    </message>
    <message>
        <source>1 server</source>
        <translation>서버 1개</translation>
    </message>
    <message>
        <source>%1 servers</source>
        <translation>서버 %1개</translation>
    </message>
    <message>
        <source>unknown: tracker unreachable</source>
        <translation>알 수 없음: 트래커에 연결할 수 없음</translation>
    </message>
    <message>
        <source>Run and Measure use this device</source>
        <translation>실행과 측정이 이 장치를 사용합니다</translation>
    </message>
</context>
<context>
    <name>tessel::views::DevicePanel</name>
    <message>
        <source>Add Tracker</source>
        <translation>트래커 추가</translation>
    </message>
    <message>
        <source>Add Server</source>
        <translation>서버 추가</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>찾아보기…</translation>
    </message>
    <message>
        <source>Token File</source>
        <translation>토큰 파일</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>호스트:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>포트:</translation>
    </message>
    <message>
        <source>Token file:</source>
        <translation>토큰 파일:</translation>
    </message>
    <message>
        <source>Add Tracker…</source>
        <translation>트래커 추가…</translation>
    </message>
    <message>
        <source>Add Server…</source>
        <translation>서버 추가…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>제거</translation>
    </message>
    <message>
        <source>Use for Runs</source>
        <translation>실행에 사용</translation>
    </message>
    <message>
        <source>Use This Machine</source>
        <translation>이 컴퓨터 사용</translation>
    </message>
    <message>
        <source>%1 is listed already.</source>
        <translation>%1은(는) 이미 목록에 있습니다.</translation>
    </message>
    <message>
        <source>Pick a server or a tracker&apos;s key first.</source>
        <translation>먼저 서버나 트래커의 키를 고르십시오.</translation>
    </message>
    <message>
        <source>Pick one of the tracker&apos;s keys or servers.</source>
        <translation>트래커의 키나 서버 중 하나를 고르십시오.</translation>
    </message>
    <message>
        <source>%1 has not answered yet: wait for its facts.</source>
        <translation>%1이(가) 아직 응답하지 않았습니다: 장치 정보를 기다리십시오.</translation>
    </message>
    <message>
        <source>Tessel cannot build for %1: %2</source>
        <translation>Tessel은 %1용으로 빌드할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Tessel cannot build for %1&apos;s target %2.</source>
        <translation>Tessel은 %1의 타깃 %2용으로 빌드할 수 없습니다.</translation>
    </message>
    <message>
        <source>Run and Measure use: %1 (target %2).</source>
        <translation>실행과 측정에 사용: %1 (타깃 %2).</translation>
    </message>
    <message>
        <source>The tracker has no server of key %1 now: start one with tessel-rpc server --tracker %2:%3 --key %1.</source>
        <translation>트래커에 지금 키 %1의 서버가 없습니다: tessel-rpc server --tracker %2:%3 --key %1로 하나를 시작하십시오.</translation>
    </message>
    <message>
        <source>%1 does not answer: %2</source>
        <translation>%1이(가) 응답하지 않습니다: %2</translation>
    </message>
    <message>
        <source>It does not answer: %1 Runs fail until it does; Use This Machine runs here.</source>
        <translation>응답하지 않습니다: %1 응답할 때까지 실행은 실패합니다. 이 컴퓨터 사용을 고르면 여기서 실행합니다.</translation>
    </message>
    <message>
        <source>Checking that it answers…</source>
        <translation>응답하는지 확인하는 중…</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceProbe</name>
    <message>
        <source>Nothing listens at %1 (%2): is %3 running there?</source>
        <translation>%1에서 듣고 있는 것이 없습니다 (%2): 그곳에서 %3이(가) 실행 중입니까?</translation>
    </message>
    <message>
        <source>No answer within %1 s: check the address and the firewall.</source>
        <translation>%1초 안에 응답이 없습니다: 주소와 방화벽을 확인하십시오.</translation>
    </message>
    <message>
        <source>%1 closed the connection (%2): check that it is a %3 and its log.</source>
        <translation>%1이(가) 연결을 닫았습니다 (%2): %3인지 확인하고 그 로그를 보십시오.</translation>
    </message>
    <message>
        <source>Not a Tessel RPC endpoint (%1): check the port.</source>
        <translation>Tessel RPC 엔드포인트가 아닙니다 (%1): 포트를 확인하십시오.</translation>
    </message>
    <message>
        <source>Missing token: this endpoint wants one; give its token file.</source>
        <translation>토큰이 없습니다: 이 엔드포인트는 토큰이 필요합니다. 토큰 파일을 지정하십시오.</translation>
    </message>
    <message>
        <source>Wrong token: check the token file %1.</source>
        <translation>잘못된 토큰: 토큰 파일 %1을(를) 확인하십시오.</translation>
    </message>
    <message>
        <source>Protocol versions differ (%1): update tessel-rpc on one side.</source>
        <translation>프로토콜 버전이 다릅니다 (%1): 한쪽의 tessel-rpc를 업데이트하십시오.</translation>
    </message>
    <message>
        <source>The server is busy (%1): try again when its sessions end.</source>
        <translation>서버가 사용 중입니다 (%1): 세션이 끝나면 다시 시도하십시오.</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 실패: %2</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphDocument</name>
    <message>
        <source>imported</source>
        <translation>가져온 직후</translation>
    </message>
    <message>
        <source>after %1</source>
        <translation>%1 이후</translation>
    </message>
    <message>
        <source>after %1 (unchanged)</source>
        <translation>%1 이후 (변경 없음)</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>융합 후</translation>
    </message>
    <message>
        <source>graph</source>
        <translation>그래프</translation>
    </message>
    <message>
        <source>input</source>
        <translation>입력</translation>
    </message>
    <message>
        <source>output</source>
        <translation>출력</translation>
    </message>
    <message>
        <source>Graph output: written by the function that computes it.</source>
        <translation>그래프 출력: 이를 계산하는 함수가 기록합니다.</translation>
    </message>
    <message>
        <source>Removed by %1: it is not in the compiled model.</source>
        <translation>%1에 의해 제거됨: 컴파일된 모델에 없습니다.</translation>
    </message>
    <message>
        <source>Not in the compiled model (a graph pass removed or replaced it).</source>
        <translation>컴파일된 모델에 없습니다 (그래프 패스가 제거하거나 대체했습니다).</translation>
    </message>
    <message>
        <source>Graph input: never fused; a parameter of the functions that read it.</source>
        <translation>그래프 입력: 융합되지 않으며, 이를 읽는 함수의 매개변수입니다.</translation>
    </message>
    <message>
        <source>%1 is %2: it fuses into the output of a convolution or dense operator, with other element-wise operators, or into a following injective operator or reduction.</source>
        <translation>%1은(는) %2 연산자입니다: 합성곱이나 dense 연산자의 출력에 융합되거나, 다른 요소별 연산자와 융합되거나, 뒤따르는 단사 연산자나 리덕션에 융합됩니다.</translation>
    </message>
    <message>
        <source>%1 is injective: it fuses with other injective and element-wise operators.</source>
        <translation>%1은(는) 단사(injective) 연산자입니다: 다른 단사 연산자 및 요소별 연산자와 융합됩니다.</translation>
    </message>
    <message>
        <source>%1 is a reduction: element-wise operators before it fuse as its inputs, and element-wise operators after it.</source>
        <translation>%1은(는) 리덕션입니다: 앞의 요소별 연산자는 입력으로 융합되며, 뒤의 요소별 연산자도 융합됩니다.</translation>
    </message>
    <message>
        <source>%1 is out-element-wise-fusable: it starts a function and takes the element-wise operators after it.</source>
        <translation>%1은(는) 출력 요소별 융합 가능 연산자입니다: 함수를 시작하며 뒤따르는 요소별 연산자를 받아들입니다.</translation>
    </message>
    <message>
        <source>%1 is opaque: it starts its own function and nothing fuses with it.</source>
        <translation>%1은(는) 불투명 연산자입니다: 자체 함수를 시작하며 어떤 연산자도 함께 융합되지 않습니다.</translation>
    </message>
    <message>
        <source>element-wise</source>
        <translation>요소별</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>브로드캐스트</translation>
    </message>
    <message>
        <source>injective</source>
        <translation>단사(injective)</translation>
    </message>
    <message>
        <source>reduction</source>
        <translation>리덕션</translation>
    </message>
    <message>
        <source>out-element-wise-fusable</source>
        <translation>출력 요소별 융합 가능</translation>
    </message>
    <message>
        <source>opaque</source>
        <translation>불투명</translation>
    </message>
    <message>
        <source>Cannot be compiled: %1.</source>
        <translation>컴파일할 수 없음: %1.</translation>
    </message>
    <message>
        <source>In subgraph %1 of %2: compiled on its own and run by the control-flow executor.</source>
        <translation>%2의 서브그래프 %1 안: 따로 컴파일되어 제어 흐름 실행기가 실행합니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphExport</name>
    <message>
        <source>There is no graph to export.</source>
        <translation>내보낼 그래프가 없습니다.</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1을(를) 쓸 수 없습니다.</translation>
    </message>
    <message>
        <source>The graph is too large for an image.</source>
        <translation>그래프가 너무 커서 이미지로 만들 수 없습니다.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1을(를) 쓸 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphPanel</name>
    <message>
        <source>The graph after which pass</source>
        <translation>어느 패스 이후의 그래프를 볼지 선택</translation>
    </message>
    <message>
        <source>Find node or operator</source>
        <translation>노드 또는 연산자 찾기</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>맞춤</translation>
    </message>
    <message>
        <source>Show the whole graph (0)</source>
        <translation>전체 그래프 표시 (0)</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>확대</translation>
    </message>
    <message>
        <source>Zoom in (+)</source>
        <translation>확대 (+)</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>축소</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>축소 (-)</translation>
    </message>
    <message>
        <source>SVG…</source>
        <translation>SVG…</translation>
    </message>
    <message>
        <source>PNG…</source>
        <translation>PNG…</translation>
    </message>
    <message>
        <source>DOT…</source>
        <translation>DOT…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <source>Laying out the graph</source>
        <translation>그래프 배치 중</translation>
    </message>
    <message>
        <source>A TE script has no model graph.</source>
        <translation>TE 스크립트에는 모델 그래프가 없습니다.</translation>
    </message>
    <message>
        <source>Open a model to see its graph.</source>
        <translation>그래프를 보려면 모델을 여세요.</translation>
    </message>
    <message>
        <source>The graph could not be laid out.</source>
        <translation>그래프를 배치할 수 없습니다.</translation>
    </message>
    <message>
        <source>Graph layout failed: %1</source>
        <translation>그래프 배치 실패: %1</translation>
    </message>
    <message>
        <source>The graph is empty.</source>
        <translation>그래프가 비어 있습니다.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 이미지 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 이미지 (*.png)</translation>
    </message>
    <message>
        <source>Graphviz files (*.dot *.gv)</source>
        <translation>Graphviz 파일 (*.dot *.gv)</translation>
    </message>
    <message>
        <source>Export Graph</source>
        <translation>그래프 내보내기</translation>
    </message>
    <message>
        <source>Graph exported to %1</source>
        <translation>그래프를 %1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>%1 ms · %2 %</source>
        <translation>%1 ms · %2%</translation>
    </message>
    <message>
        <source>%1
%2 ms, %3 % of the model&apos;s time, %4 GFLOP/s (measured on %5)</source>
        <translation>%1
%2 ms, 모델 시간의 %3%, %4 GFLOP/s (%5에서 측정)</translation>
    </message>
    <message>
        <source>Colour: time</source>
        <translation>색: 시간</translation>
    </message>
    <message>
        <source>Colour: roofline</source>
        <translation>색: 루프라인</translation>
    </message>
    <message>
        <source>What a profiled run colours: each function&apos;s share of the model&apos;s time, or how far it stays below its roofline (min of the FMA peak and its arithmetic intensity × the measured memory bandwidth): the darker, the further</source>
        <translation>프로파일 실행이 칠하는 것: 각 함수가 모델 시간에서 차지하는 비율, 또는 루프라인(FMA 최고 성능과 산술 강도 × 측정한 메모리 대역폭 중 작은 값)에 얼마나 못 미치는지: 진할수록 더 멉니다</translation>
    </message>
    <message>
        <source> · %1 % of roofline</source>
        <translation> · 루프라인의 %1 %</translation>
    </message>
    <message>
        <source>
%1 % of its roofline (%2-bound)</source>
        <translation>
루프라인의 %1 % (%2 한계)</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>메모리</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>연산</translation>
    </message>
    <message>
        <source>Collapse All Subgraphs</source>
        <translation>모든 서브그래프 접기</translation>
    </message>
    <message>
        <source>Expand All Subgraphs</source>
        <translation>모든 서브그래프 펼치기</translation>
    </message>
    <message>
        <source>Subgraphs</source>
        <translation>서브그래프</translation>
    </message>
    <message>
        <source>Collapse every subgraph (If&apos;s branches, a Loop&apos;s or Scan&apos;s body) to one box, or expand them all; double-click a subgraph&apos;s label or box for one</source>
        <translation>모든 서브그래프(If의 분기, Loop나 Scan의 본문)를 상자 하나로 접거나 모두 펼칩니다. 하나만 하려면 서브그래프의 레이블이나 상자를 두 번 클릭하세요</translation>
    </message>
    <message>
        <source>Expand %1</source>
        <translation>%1 펼치기</translation>
    </message>
    <message>
        <source>Collapse %1</source>
        <translation>%1 접기</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphScene</name>
    <message numerus="yes">
        <source>Fused function %1 (%n operators)</source>
        <translation>
            <numerusform>융합 함수 %1 (연산자 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>소속: %1</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>노드 1개</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>노드 %1개</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2 (shown, not compiled): double-click its label to collapse it</source>
        <translation>%2의 서브그래프 %1 (표시만, 컴파일 안 됨): 레이블을 두 번 클릭하면 접힙니다</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2, collapsed (%3): double-click to expand it</source>
        <translation>%2의 서브그래프 %1, 접힘 (%3): 두 번 클릭하면 펼쳐집니다</translation>
    </message>
    <message>
        <source>Cannot be compiled: %1</source>
        <translation>컴파일할 수 없음: %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::InputShapesDialog</name>
    <message>
        <source>%1 has %2 dimensions, %3 given</source>
        <translation>%1은(는) %2차원인데 %3개 차원이 입력되었습니다</translation>
    </message>
    <message>
        <source>%1: dimension %2 is not a positive number</source>
        <translation>%1: 차원 %2이(가) 양수가 아닙니다</translation>
    </message>
    <message>
        <source>%1: dimension %2 is fixed to %3 by the model</source>
        <translation>%1: 차원 %2은(는) 모델에서 %3(으)로 고정되어 있습니다</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>입력 형상</translation>
    </message>
    <message>
        <source>%1: give a shape such as %2</source>
        <translation>%1: %2 같은 형상을 입력하세요</translation>
    </message>
    <message>
        <source>%1: dimension %2 is unknown (?): give its size</source>
        <translation>%1: 차원 %2의 크기를 알 수 없습니다(?): 크기를 입력하세요</translation>
    </message>
    <message>
        <source>%1: dimension %2 (%3) is unknown (?): give its size</source>
        <translation>%1: 차원 %2(%3)의 크기를 알 수 없습니다(?): 크기를 입력하세요</translation>
    </message>
    <message>
        <source>%1 has inputs with dynamic dimensions (shown by name or as ?). Tessel compiles for fixed shapes: give each input&apos;s dimensions, separated by commas.</source>
        <translation>%1에 동적 차원(이름 또는 ?로 표시)을 가진 입력이 있습니다. Tessel은 고정된 형상으로 컴파일하므로 각 입력의 차원을 쉼표로 구분하여 입력하세요.</translation>
    </message>
    <message>
        <source>The dimensions of %1, e.g. %2 (as tesselc --input-shape %1:%2 takes them)</source>
        <translation>%1의 차원, 예: %2 (tesselc --input-shape %1:%2 와 같은 형식)</translation>
    </message>
</context>
<context>
    <name>tessel::views::LessonChart</name>
    <message>
        <source>Each step&apos;s time: this machine&apos;s measurement next to the tutorial&apos;s figure (log scale). Click a bar to open its step.</source>
        <translation>단계별 시간: 이 컴퓨터의 측정값과 튜토리얼의 수치를 나란히 표시합니다(로그 눈금). 막대를 클릭하면 해당 단계가 열립니다.</translation>
    </message>
    <message>
        <source>Tutorial</source>
        <translation>튜토리얼</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>시간 (ms)</translation>
    </message>
    <message>
        <source>No times to draw: the steps need a GPU
to be timed, and the tutorial printed
none per step.</source>
        <translation>그릴 시간이 없습니다: 단계들의 시간을 재려면
GPU가 필요하고, 튜토리얼은 단계별
수치를 싣지 않았습니다.</translation>
    </message>
    <message>
        <source>No times yet: Measure a step
to draw its bar.</source>
        <translation>아직 시간이 없습니다: 단계를 측정하면
막대가 그려집니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::LessonTimes</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>틀림</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Tutorial</source>
        <translation>튜토리얼</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>GPU 없음</translation>
    </message>
</context>
<context>
    <name>tessel::views::LessonView</name>
    <message>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>편집기에서 열기</translation>
    </message>
    <message>
        <source>Run this step on this machine and check it against the default schedule</source>
        <translation>이 단계를 이 컴퓨터에서 실행하고 기본 스케줄과 결과를 비교합니다</translation>
    </message>
    <message>
        <source>Edit this step&apos;s schedule in the schedule editor</source>
        <translation>스케줄 편집기에서 이 단계의 스케줄을 편집합니다</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>스크립트</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>변경 사항</translation>
    </message>
    <message>
        <source>TIR</source>
        <translation>TIR</translation>
    </message>
    <message>
        <source>Assembly</source>
        <translation>어셈블리</translation>
    </message>
    <message>
        <source>Tutorial figures: &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt; by %3 (docs %4).</source>
        <translation>튜토리얼 수치: %3의 &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt; (문서 %4).</translation>
    </message>
    <message>
        <source>Changes (+%1 −%2)</source>
        <translation>변경 사항 (+%1 −%2)</translation>
    </message>
    <message>
        <source># Lowering…</source>
        <translation># 로워링 중…</translation>
    </message>
    <message>
        <source>Lowering %1</source>
        <translation>%1 로워링 중</translation>
    </message>
    <message>
        <source>Tutorial (%1): %2</source>
        <translation>튜토리얼 (%1): %2</translation>
    </message>
    <message>
        <source>, %1× the baseline</source>
        <translation>, 기준 대비 %1×</translation>
    </message>
    <message>
        <source>Tutorial: no figure (%1)</source>
        <translation>튜토리얼: 수치 없음 (%1)</translation>
    </message>
    <message>
        <source>not in the tutorial</source>
        <translation>튜토리얼에 없음</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>정확함</translation>
    </message>
    <message>
        <source>WRONG: %1</source>
        <translation>틀림: %1</translation>
    </message>
    <message>
        <source>This machine: measuring…</source>
        <translation>이 컴퓨터: 측정 중…</translation>
    </message>
    <message>
        <source>This machine: not measured yet</source>
        <translation>이 컴퓨터: 아직 측정하지 않음</translation>
    </message>
    <message>
        <source>Measuring %1</source>
        <translation>%1 측정 중</translation>
    </message>
    <message>
        <source>This machine: failed: %1</source>
        <translation>이 컴퓨터: 실패: %1</translation>
    </message>
    <message>
        <source>%1, %2 GFLOP/s, %3</source>
        <translation>%1, %2 GFLOP/s, %3</translation>
    </message>
    <message>
        <source>This machine: %1</source>
        <translation>이 컴퓨터: %1</translation>
    </message>
    <message>
        <source>The measurement on %1 failed: %2</source>
        <translation>%1에서의 측정 실패: %2</translation>
    </message>
    <message>
        <source>Measuring %1 on %2 failed: %3</source>
        <translation>%2에서 %1 측정 실패: %3</translation>
    </message>
    <message>
        <source>The ladder to follow: GEMM on this CPU, or on an NVIDIA GPU (PTX)</source>
        <translation>따라갈 단계: 이 CPU의 GEMM 또는 NVIDIA GPU(PTX)의 GEMM</translation>
    </message>
    <message>
        <source>Cannot be timed here: %1</source>
        <translation>여기서는 시간을 잴 수 없습니다: %1</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>Tutorial (%1): no figure for this step</source>
        <translation>튜토리얼 (%1): 이 단계의 수치 없음</translation>
    </message>
    <message>
        <source>Not timed here, the step is for a GPU: %1. Its TIR and PTX are below; scripts/gpu-check.sh times the ladder on a GPU host.</source>
        <translation>여기서는 시간을 재지 않았습니다. 이 단계는 GPU용입니다: %1. TIR과 PTX는 아래에 있습니다. scripts/gpu-check.sh가 GPU 호스트에서 단계들의 시간을 잽니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::MainWindow</name>
    <message>
        <source>Open project</source>
        <translation>프로젝트 열기</translation>
    </message>
    <message>
        <source>Tessel projects (*.tessel)</source>
        <translation>Tessel 프로젝트 (*.tessel)</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소되었습니다.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Model or Script…</source>
        <translation>모델 또는 스크립트 열기(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Project…</source>
        <translation>프로젝트 열기(&amp;P)…</translation>
    </message>
    <message>
        <source>Recent &amp;Files</source>
        <translation>최근 파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>예제(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>Reset Layout</source>
        <translation>레이아웃 초기화</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>실행(&amp;R)</translation>
    </message>
    <message>
        <source>Compile and Run &amp;Model</source>
        <translation>모델 컴파일 및 실행(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Cancel Running Work</source>
        <translation>실행 중인 작업 취소(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>설정(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>시스템 언어</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Pass Reference</source>
        <translation>패스 레퍼런스(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;GEMM Lesson</source>
        <translation>GEMM 실습(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;About Tessel</source>
        <translation>Tessel 정보(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt 정보(&amp;Q)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Cancel the running work</source>
        <translation>실행 중인 작업을 취소합니다</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>그래프</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>속성</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>스케줄</translation>
    </message>
    <message>
        <source>GEMM Lesson</source>
        <translation>GEMM 실습</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>untitled.te</source>
        <translation>제목 없음.te</translation>
    </message>
    <message>
        <source>Open model or script</source>
        <translation>모델 또는 스크립트 열기</translation>
    </message>
    <message>
        <source>Models and scripts (*.onnx *.te *.tessel);;ONNX models (*.onnx);;TE scripts (*.te);;Tessel projects (*.tessel)</source>
        <translation>모델 및 스크립트 (*.onnx *.te *.tessel);;ONNX 모델 (*.onnx);;TE 스크립트 (*.te);;Tessel 프로젝트 (*.tessel)</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1이(가) 존재하지 않습니다</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>%1 읽는 중</translation>
    </message>
    <message>
        <source>Opening %1 cancelled: its input shapes are needed.</source>
        <translation>%1 열기가 취소되었습니다: 입력 형상이 필요합니다.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>%1 컴파일 중…</translation>
    </message>
    <message>
        <source>Compiling %1</source>
        <translation>%1 컴파일 중</translation>
    </message>
    <message>
        <source>%1: %2 fused functions, compiled in %3 s</source>
        <translation>%1: 융합 함수 %2개, 컴파일 시간 %3 s</translation>
    </message>
    <message>
        <source>Cannot compile %1: %2</source>
        <translation>%1을(를) 컴파일할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Cannot open project %1: %2</source>
        <translation>프로젝트 %1을(를) 열 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1을(를) 저장했습니다</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>프로젝트 저장</translation>
    </message>
    <message>
        <source>Cannot write the example model: %1</source>
        <translation>예제 모델을 쓸 수 없습니다: %1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(없음)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>지우기</translation>
    </message>
    <message>
        <source>ResNet-18 (model zoo) and the GEMM lesson</source>
        <translation>ResNet-18 (model zoo) 및 GEMM 실습</translation>
    </message>
    <message>
        <source>%1 (model zoo)</source>
        <translation>%1 (model zoo)</translation>
    </message>
    <message>
        <source>Writing %1</source>
        <translation>%1 쓰는 중</translation>
    </message>
    <message>
        <source>GEMM: %1</source>
        <translation>GEMM: %1</translation>
    </message>
    <message>
        <source>Template: %1</source>
        <translation>템플릿: %1</translation>
    </message>
    <message>
        <source>Open a model first (File &gt; Open, or File &gt; Examples).</source>
        <translation>먼저 모델을 여세요 (파일 &gt; 열기 또는 파일 &gt; 예제).</translation>
    </message>
    <message>
        <source>Compiling and running %1</source>
        <translation>%1 컴파일 및 실행 중</translation>
    </message>
    <message>
        <source>%1: %2 ms (median of %3 runs, %4 threads), edited schedules: %5, compiled in %6 s</source>
        <translation>%1: %2 ms (%3회 실행의 중앙값, 스레드 %4개), 편집된 스케줄 %5개, 컴파일 시간 %6 s</translation>
    </message>
    <message>
        <source>Compile and run failed: %1</source>
        <translation>컴파일 및 실행 실패: %1</translation>
    </message>
    <message>
        <source>About Tessel</source>
        <translation>Tessel 정보</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Bad input shape: %1</source>
        <translation>잘못된 입력 형상: %1</translation>
    </message>
    <message>
        <source>&amp;Target…</source>
        <translation>대상(&amp;T)…</translation>
    </message>
    <message>
        <source>The machine every compile generates code for</source>
        <translation>모든 컴파일이 코드를 생성하는 대상 기계</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 (%2용)</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>대상</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>대상: %1</translation>
    </message>
    <message>
        <source>Compile and Run Model runs on this machine, but the target is %1: choose Settings &gt; Target &gt; host to run it here, or a device of that kind in the Devices panel.</source>
        <translation>모델 컴파일 및 실행은 이 기계에서 실행되지만 대상이 %1입니다: 여기서 실행하려면 설정 &gt; 대상 &gt; host를 고르십시오, 또는 장치 패널에서 그 종류의 장치를 고르세요.</translation>
    </message>
    <message>
        <source>&amp;Maximise Pane</source>
        <translation>창 최대화(&amp;M)</translation>
    </message>
    <message>
        <source>Let the pane with the keyboard focus fill the window; press %1 again to bring the other views back</source>
        <translation>키보드 포커스가 있는 창을 메인 창 전체로 넓힙니다. %1을(를) 다시 누르면 다른 보기가 돌아옵니다</translation>
    </message>
    <message>
        <source>%1 fills the window: %2 brings the other views back.</source>
        <translation>%1이(가) 메인 창 전체를 채웁니다: %2을(를) 누르면 다른 보기가 돌아옵니다.</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>장치</translation>
    </message>
    <message>
        <source>Tuning</source>
        <translation>튜닝</translation>
    </message>
    <message>
        <source>&amp;Tuned Configurations</source>
        <translation>튜닝된 구성(&amp;T)</translation>
    </message>
    <message>
        <source>Default Schedules (Untuned)</source>
        <translation>기본 스케줄 (튜닝 안 함)</translation>
    </message>
    <message>
        <source>Every fused function keeps its default schedule</source>
        <translation>모든 융합 함수가 기본 스케줄을 그대로 사용합니다</translation>
    </message>
    <message>
        <source>Bundled for This Machine Kind</source>
        <translation>기본 제공 (이 컴퓨터 종류용)</translation>
    </message>
    <message>
        <source>The zoo models&apos; configurations tuned on an x86-64 machine with AVX-512 (%1)</source>
        <translation>AVX-512를 지원하는 x86-64 컴퓨터에서 튜닝한 model zoo 모델들의 구성 (%1)</translation>
    </message>
    <message>
        <source>Records: %1</source>
        <translation>기록: %1</translation>
    </message>
    <message>
        <source>Choose Records File…</source>
        <translation>기록 파일 선택…</translation>
    </message>
    <message>
        <source>Tuned configurations</source>
        <translation>튜닝된 구성</translation>
    </message>
    <message>
        <source>Tuning records (*.jsonl);;All files (*)</source>
        <translation>튜닝 기록 (*.jsonl);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Default schedules: tuned configurations are off</source>
        <translation>기본 스케줄: 튜닝된 구성을 사용하지 않습니다</translation>
    </message>
    <message>
        <source>Tuned configurations from %1</source>
        <translation>튜닝된 구성 사용: %1</translation>
    </message>
    <message>
        <source>; %1 of %2 tunable functions tuned</source>
        <translation>; 튜닝 가능한 함수 %2개 중 %1개 튜닝됨</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Primitive Steps</source>
        <translation>프리미티브 단계</translation>
    </message>
    <message>
        <source>Save &amp;Project</source>
        <translation>프로젝트 저장(&amp;P)</translation>
    </message>
    <message>
        <source>Save Project As…</source>
        <translation>다른 이름으로 프로젝트 저장…</translation>
    </message>
    <message>
        <source>Tessel[*]</source>
        <translation>Tessel[*]</translation>
    </message>
    <message>
        <source>%1[*] — Tessel</source>
        <translation>%1[*] — Tessel</translation>
    </message>
    <message>
        <source>Running %1 on %2 failed: %3</source>
        <translation>%2에서 %1 실행 실패: %3</translation>
    </message>
    <message>
        <source>&amp;Save Script</source>
        <translation>스크립트 저장(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>저장(&amp;S)</translation>
    </message>
    <message>
        <source>Save Script &amp;As…</source>
        <translation>다른 이름으로 스크립트 저장(&amp;A)…</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>다른 이름으로 저장(&amp;A)…</translation>
    </message>
    <message>
        <source>Write the script to its file</source>
        <translation>스크립트를 파일에 씁니다</translation>
    </message>
    <message>
        <source>Save the project: the model, its edited schedules, the tuning settings</source>
        <translation>프로젝트 저장: 모델, 편집한 스케줄, 튜닝 설정</translation>
    </message>
    <message>
        <source>&amp;Revert Script to Saved</source>
        <translation>저장된 스크립트로 되돌리기(&amp;R)</translation>
    </message>
    <message>
        <source>Save script</source>
        <translation>스크립트 저장</translation>
    </message>
    <message>
        <source>TE scripts (*.te)</source>
        <translation>TE 스크립트 (*.te)</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1을(를) 저장할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Revert Script</source>
        <translation>스크립트 되돌리기</translation>
    </message>
    <message>
        <source>Discard the changes to %1 and reload it from its file?</source>
        <translation>%1의 변경 내용을 버리고 파일에서 다시 읽을까요?</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>되돌리기</translation>
    </message>
    <message>
        <source>Reverted %1 to its file</source>
        <translation>%1을(를) 파일 내용으로 되돌렸습니다</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>저장하지 않은 변경 내용</translation>
    </message>
    <message>
        <source>Save your changes before closing?</source>
        <translation>닫기 전에 변경 내용을 저장할까요?</translation>
    </message>
    <message>
        <source>Not saved yet: %1.</source>
        <translation>아직 저장하지 않음: %1.</translation>
    </message>
    <message>
        <source>Don&apos;t Save</source>
        <translation>저장 안 함</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>자동 저장 실패: %1</translation>
    </message>
    <message>
        <source>Tessel did not close normally: unsaved work from %1 can be restored (%2).</source>
        <translation>Tessel이 정상적으로 닫히지 않았습니다: %1의 저장하지 않은 작업을 복원할 수 있습니다 (%2).</translation>
    </message>
    <message numerus="yes">
        <source>%n more after this one.</source>
        <translation>
            <numerusform>이것 다음에 %n개 더 있습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>복원</translation>
    </message>
    <message>
        <source>Open it again as it was, unsaved</source>
        <translation>저장하지 않은 상태 그대로 다시 엽니다</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>버리기</translation>
    </message>
    <message>
        <source>Delete the recovered copy</source>
        <translation>복구된 사본을 삭제합니다</translation>
    </message>
    <message>
        <source>Restored unsaved work from %1</source>
        <translation>%1의 저장하지 않은 작업을 복원했습니다</translation>
    </message>
    <message>
        <source>Generate code for (host, an architecture, a triple with -mcpu/-mattr, llvm -mtriple=…, or cuda -mcpu=sm_90 for an NVIDIA GPU):</source>
        <translation>코드를 생성할 대상 (host, 아키텍처, -mcpu/-mattr가 붙은 트리플, llvm -mtriple=…, 또는 NVIDIA GPU용 cuda -mcpu=sm_90):</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tessel %1&lt;/h3&gt;&lt;p&gt;An IDE for seeing and tuning deep-learning compilation: ONNX models become fused operators, tensor expressions with schedules, loop programs (TIR), LLVM IR and assembly (PTX and CUDA C for NVIDIA GPUs), all shown side by side.&lt;/p&gt;&lt;p&gt;Built with Qt %2, LLVM 16 and Graphviz.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tessel %1&lt;/h3&gt;&lt;p&gt;딥러닝 컴파일 과정을 살펴보고 튜닝하는 IDE입니다: ONNX 모델이 융합 연산자, 스케줄이 적용된 텐서 표현식, 루프 프로그램(TIR), LLVM IR, 어셈블리(NVIDIA GPU에서는 PTX와 CUDA C)로 바뀌는 과정을 모두 나란히 보여 줍니다.&lt;/p&gt;&lt;p&gt;Qt %2, LLVM 16, Graphviz로 빌드되었습니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>G&amp;PU GEMM Lesson (PTX)</source>
        <translation>GPU GEMM 실습 (PTX)(&amp;P)</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>경고: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 cannot be compiled: %n unsupported construct(s), listed in the log; its graph is shown.</source>
        <translation>
            <numerusform>%1을(를) 컴파일할 수 없습니다: 지원되지 않는 구성 %n개(로그에 나열됨). 그래프만 표시합니다.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::NodeProperties</name>
    <message>
        <source>Property</source>
        <translation>속성</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>값</translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation>선택된 항목 없음</translation>
    </message>
    <message>
        <source>Click a node in the graph to see its properties.</source>
        <translation>그래프에서 노드를 클릭하면 속성을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Graph input</source>
        <translation>그래프 입력</translation>
    </message>
    <message>
        <source>Graph output</source>
        <translation>그래프 출력</translation>
    </message>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>연산자</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>패턴</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Fused function</source>
        <translation>융합 함수</translation>
    </message>
    <message>
        <source>Click to select this function in every view</source>
        <translation>클릭하면 모든 보기에서 이 함수를 선택합니다</translation>
    </message>
    <message>
        <source>Group kind</source>
        <translation>그룹 유형</translation>
    </message>
    <message>
        <source>Master</source>
        <translation>주 연산자</translation>
    </message>
    <message>
        <source>Operators in function</source>
        <translation>함수 내 연산자 수</translation>
    </message>
    <message>
        <source>none (not in the compiled model)</source>
        <translation>없음 (컴파일된 모델에 없음)</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>타입</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>특성</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>입력</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>none (optional input left out)</source>
        <translation>없음 (선택적 입력 생략됨)</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>상수</translation>
    </message>
    <message>
        <source>graph input</source>
        <translation>그래프 입력</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>%1에서</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  (%2)</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>출력</translation>
    </message>
    <message>
        <source>  → %1</source>
        <translation>  → %1</translation>
    </message>
    <message>
        <source>Fused function  %1</source>
        <translation>융합 함수  %1</translation>
    </message>
    <message numerus="yes">
        <source>%n operators computed in one kernel; the intermediate tensors are never stored.</source>
        <translation>
            <numerusform>연산자 %n개를 하나의 커널에서 계산하며, 중간 텐서는 저장되지 않습니다.</numerusform>
        </translation>
    </message>
    <message>
        <source>GFLOP per call</source>
        <translation>호출당 GFLOP</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>연산자</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>스케줄</translation>
    </message>
    <message>
        <source>edited in the schedule editor</source>
        <translation>스케줄 편집기에서 편집됨</translation>
    </message>
    <message>
        <source>configuration opened from the Tuning view</source>
        <translation>튜닝 보기에서 연 구성</translation>
    </message>
    <message>
        <source>tuned (%1)</source>
        <translation>튜닝됨 (%1)</translation>
    </message>
    <message numerus="yes">
        <source>default (%n tunable knob(s))</source>
        <translation>
            <numerusform>기본값 (튜닝 가능한 노브 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <source>Time</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>%1 ms (%2 % of the model, on %3)</source>
        <translation>%1 ms (모델의 %2%, %3에서 측정)</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>처리량</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>전략</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>이유</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>도메인</translation>
    </message>
    <message>
        <source>Cannot compile</source>
        <translation>컴파일 불가</translation>
    </message>
    <message>
        <source>none (the model cannot be compiled)</source>
        <translation>없음 (모델을 컴파일할 수 없음)</translation>
    </message>
    <message>
        <source>Subgraphs</source>
        <translation>서브그래프</translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s)</source>
        <translation>
            <numerusform>연산자 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Subgraph  %1</source>
        <translation>서브그래프  %1</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2: compiled on its own and run by the control-flow executor.</source>
        <translation>%2의 서브그래프 %1: 따로 컴파일되어 제어 흐름 실행기가 실행합니다.</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>속성</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>소유 노드</translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation>상자</translation>
    </message>
    <message>
        <source>Model  %1</source>
        <translation>모델  %1</translation>
    </message>
    <message>
        <source>The model as a whole. Click a node in the graph to see its properties.</source>
        <translation>모델 전체입니다. 그래프에서 노드를 클릭하면 그 속성을 봅니다.</translation>
    </message>
    <message>
        <source>The model as imported: it cannot be compiled. Click a node in the graph to see its properties.</source>
        <translation>가져온 그대로의 모델입니다: 컴파일할 수 없습니다. 그래프에서 노드를 클릭하면 그 속성을 봅니다.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>%1 (%2 in subgraphs)</source>
        <translation>%1 (서브그래프 안에 %2)</translation>
    </message>
    <message>
        <source>Fused functions</source>
        <translation>융합 함수</translation>
    </message>
    <message numerus="yes">
        <source>%n construct(s)</source>
        <translation>
            <numerusform>구성 요소 %n개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::PassReferenceDialog</name>
    <message>
        <source>Option</source>
        <translation>옵션</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>기본값</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>의미</translation>
    </message>
    <message>
        <source>Pass reference</source>
        <translation>패스 레퍼런스</translation>
    </message>
    <message>
        <source>Graph passes</source>
        <translation>그래프 패스</translation>
    </message>
    <message>
        <source>Run on the whole model after import, in the order of the default pipeline; the graph view shows the graph after each.</source>
        <translation>가져온 후 모델 전체에 기본 파이프라인 순서대로 실행됩니다. 그래프 보기에서 각 패스 이후의 그래프를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>TIR passes</source>
        <translation>TIR 패스</translation>
    </message>
    <message>
        <source>Run on each fused function&apos;s loop program after lowering its schedule; the stage view shows the TIR after each.</source>
        <translation>각 융합 함수의 스케줄을 로워링한 뒤 그 루프 프로그램에 실행됩니다. 단계 보기에서 각 패스 이후의 TIR을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>LLVM optimisation</source>
        <translation>LLVM 최적화</translation>
    </message>
    <message>
        <source>The lowered TIR becomes LLVM IR with a debug location per TIR line; LLVM&apos;s O3 pipeline optimises it for this CPU and the code generator writes assembly. The code view links all three.</source>
        <translation>로워링된 TIR은 TIR 줄마다 디버그 위치가 붙은 LLVM IR이 됩니다. LLVM의 O3 파이프라인이 이를 이 CPU에 맞게 최적화하고 코드 생성기가 어셈블리를 출력합니다. 코드 보기는 이 세 가지를 서로 연결합니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::PrimitiveStepper</name>
    <message>
        <source>The schedule&apos;s primitives in order: choose one to see the TIR after it</source>
        <translation>스케줄의 프리미티브를 순서대로 보여 줍니다: 하나를 고르면 그 다음의 TIR이 보입니다</translation>
    </message>
    <message>
        <source>Open a TE script or select a fused function: its schedule is stepped through here.</source>
        <translation>TE 스크립트를 열거나 융합 함수를 선택하십시오: 그 스케줄을 여기서 한 단계씩 살펴봅니다.</translation>
    </message>
    <message>
        <source>the default schedule</source>
        <translation>기본 스케줄</translation>
    </message>
    <message>
        <source>Lowering the schedule step by step…</source>
        <translation>스케줄을 한 단계씩 로워링하는 중…</translation>
    </message>
    <message>
        <source>Stepping through the schedule of %1</source>
        <translation>%1의 스케줄을 단계별로 살펴보는 중</translation>
    </message>
    <message>
        <source>Cannot step through the schedule: %1</source>
        <translation>스케줄을 단계별로 살펴볼 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Step %1 of %2 does not lower: %3</source>
        <translation>%2단계 중 %1단계를 로워링할 수 없습니다: %3</translation>
    </message>
    <message>
        <source>Step 0 of %1: the default schedule (no primitive yet).</source>
        <translation>%1단계 중 0단계: 기본 스케줄 (아직 프리미티브 없음).</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2: %3 — %n TIR line(s) new</source>
        <translation>
            <numerusform>%2단계 중 %1단계: %3 — 새 TIR 줄 %n개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::Project</name>
    <message>
        <source>not a project file: %1 at offset %2</source>
        <translation>프로젝트 파일이 아닙니다: %1 (오프셋 %2)</translation>
    </message>
    <message>
        <source>not a Tessel project (no &quot;tessel-project&quot; version)</source>
        <translation>Tessel 프로젝트가 아닙니다 (&quot;tessel-project&quot; 버전 없음)</translation>
    </message>
    <message>
        <source>project version %1 is not supported (this Tessel reads version %2)</source>
        <translation>프로젝트 버전 %1은(는) 지원되지 않습니다 (이 Tessel은 버전 %2를 읽습니다)</translation>
    </message>
    <message>
        <source>a project opens a model or a script, not both</source>
        <translation>프로젝트는 모델과 스크립트 중 하나만 열 수 있습니다</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1을(를) 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
</context>
<context>
    <name>tessel::views::RecordTable</name>
    <message>
        <source>ok (default)</source>
        <translation>정상 (기본값)</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>시행</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>결과</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>구성</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>메시지</translation>
    </message>
</context>
<context>
    <name>tessel::views::Recovery</name>
    <message>
        <source>cannot create %1</source>
        <translation>%1을(를) 만들 수 없습니다</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1을(를) 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>not a recovery file of this Tessel</source>
        <translation>이 Tessel의 복구 파일이 아닙니다</translation>
    </message>
</context>
<context>
    <name>tessel::views::RunHistory</name>
    <message>
        <source>run %1</source>
        <translation>실행 %1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>스레드 %1개</translation>
    </message>
    <message>
        <source>max abs error %1, max rel error %2</source>
        <translation>최대 절대 오차 %1, 최대 상대 오차 %2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>변경</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>지연 시간 (ms)</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>% of peak</source>
        <translation>피크 대비 %</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>정확성</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>장치</translation>
    </message>
</context>
<context>
    <name>tessel::views::SassDisassembly</name>
    <message>
        <source>SASS needs the CUDA toolkit&apos;s %1, not found in %2. Install the CUDA toolkit (or set CUDA_HOME) to see the GPU&apos;s machine code; the PTX does not need it.</source>
        <translation>SASS에는 CUDA 툴킷의 %1이(가) 필요하지만 %2에서 찾지 못했습니다. GPU의 기계어 코드를 보려면 CUDA 툴킷을 설치하거나 CUDA_HOME을 설정하십시오. PTX에는 필요하지 않습니다.</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleDocument</name>
    <message>
        <source>Nothing is open.</source>
        <translation>열린 항목이 없습니다.</translation>
    </message>
    <message>
        <source>Open a TE script or select a fused function to edit its schedule.</source>
        <translation>TE 스크립트를 열거나 융합 함수를 선택하여 스케줄을 편집하세요.</translation>
    </message>
    <message>
        <source>Select a fused function to edit its schedule.</source>
        <translation>스케줄을 편집할 융합 함수를 선택하세요.</translation>
    </message>
    <message>
        <source>The model has no function &apos;%1&apos;.</source>
        <translation>모델에 &apos;%1&apos; 함수가 없습니다.</translation>
    </message>
    <message>
        <source># The schedule of this function was not printed: the model was compiled without its trace.
</source>
        <translation># 이 함수의 스케줄이 출력되지 않았습니다: 모델이 트레이스 없이 컴파일되었습니다.
</translation>
    </message>
    <message>
        <source>Lowering…</source>
        <translation>로워링 중…</translation>
    </message>
    <message>
        <source>Lowering %1</source>
        <translation>%1 로워링 중</translation>
    </message>
    <message>
        <source>Read-only: this schedule cannot be written as a TE script (see the comment).</source>
        <translation>읽기 전용: 이 스케줄은 TE 스크립트로 작성할 수 없습니다 (주석 참조).</translation>
    </message>
    <message>
        <source>Lowered in %1 ms (TIR %2 ms, code %3 ms)</source>
        <translation>로워링 %1 ms (TIR %2 ms, 코드 %3 ms)</translation>
    </message>
    <message>
        <source>Nothing to run: open a TE script or select a fused function.</source>
        <translation>실행할 대상이 없습니다: TE 스크립트를 열거나 융합 함수를 선택하세요.</translation>
    </message>
    <message>
        <source>Fix the script before running it.</source>
        <translation>실행하기 전에 스크립트를 수정하세요.</translation>
    </message>
    <message>
        <source>Measuring %1…</source>
        <translation>%1 측정 중…</translation>
    </message>
    <message>
        <source>Measuring %1</source>
        <translation>%1 측정 중</translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation>실행이 취소되었습니다.</translation>
    </message>
    <message>
        <source>%1 computes something else than its default schedule: %2</source>
        <translation>%1의 계산 결과가 기본 스케줄과 다릅니다: %2</translation>
    </message>
    <message>
        <source>Run and Measure now use %1.</source>
        <translation>이제 실행과 측정이 %1을(를) 사용합니다.</translation>
    </message>
    <message>
        <source>The run on %1 failed: %2</source>
        <translation>%1에서의 실행 실패: %2</translation>
    </message>
    <message>
        <source>Measured on %3: %1 ms, %2 GFLOP/s</source>
        <translation>%3에서 측정: %1 ms, %2 GFLOP/s</translation>
    </message>
    <message>
        <source>The run of %1 on %2 failed: %3</source>
        <translation>%2에서 %1 실행 실패: %3</translation>
    </message>
    <message>
        <source>Assembly of %1</source>
        <translation>%1의 어셈블리</translation>
    </message>
    <message>
        <source>Lowered in %1 ms (TIR %2 ms, code %3 ms, of which assembly %4 ms)</source>
        <translation>%1 ms에 로워링함 (TIR %2 ms, 코드 %3 ms, 그중 어셈블리 %4 ms)</translation>
    </message>
    <message>
        <source>No assembly: %1</source>
        <translation>어셈블리 없음: %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleEditor</name>
    <message>
        <source>Undo</source>
        <translation>실행 취소</translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation>실행 취소 (Ctrl+Z)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>다시 실행</translation>
    </message>
    <message>
        <source>Redo (Ctrl+Shift+Z)</source>
        <translation>다시 실행 (Ctrl+Shift+Z)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>실행</translation>
    </message>
    <message>
        <source>Measure this schedule and check it against the default schedule (Ctrl+R)</source>
        <translation>이 스케줄을 측정하고 기본 스케줄과 결과를 비교합니다 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>루프</translation>
    </message>
    <message>
        <source>Extent</source>
        <translation>범위</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>The loop nest of the schedule; right-click a loop to write a schedule line</source>
        <translation>스케줄의 루프 중첩입니다. 루프를 마우스 오른쪽 버튼으로 클릭하면 스케줄 줄을 작성할 수 있습니다</translation>
    </message>
    <message>
        <source>Double-click a run to put its script back</source>
        <translation>실행 항목을 더블클릭하면 해당 스크립트를 되돌려 놓습니다</translation>
    </message>
    <message>
        <source>inline</source>
        <translation>인라인</translation>
    </message>
    <message>
        <source>computed here</source>
        <translation>여기서 계산됨</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>리덕션</translation>
    </message>
    <message>
        <source>TIR: %1
Script: %2</source>
        <translation>TIR: %1
스크립트: %2</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(이름 없음)</translation>
    </message>
    <message>
        <source>Split…</source>
        <translation>분할(split)…</translation>
    </message>
    <message>
        <source>Tile with the next loop…</source>
        <translation>다음 루프와 타일링(tile)…</translation>
    </message>
    <message>
        <source>Reorder…</source>
        <translation>순서 변경(reorder)…</translation>
    </message>
    <message>
        <source>Fuse with the next loop</source>
        <translation>다음 루프와 융합(fuse)</translation>
    </message>
    <message>
        <source>Vectorize</source>
        <translation>벡터화(vectorize)</translation>
    </message>
    <message>
        <source>Unroll</source>
        <translation>언롤(unroll)</translation>
    </message>
    <message>
        <source>Parallel</source>
        <translation>병렬화(parallel)</translation>
    </message>
    <message>
        <source>Compute at…</source>
        <translation>지정 루프에서 계산(compute_at)…</translation>
    </message>
    <message>
        <source>Compute inline</source>
        <translation>인라인 계산(compute_inline)</translation>
    </message>
    <message>
        <source>Compute at root</source>
        <translation>루트에서 계산(compute_root)</translation>
    </message>
    <message>
        <source>Cache write</source>
        <translation>쓰기 캐시(cache_write)</translation>
    </message>
    <message>
        <source>This schedule cannot be edited.</source>
        <translation>이 스케줄은 편집할 수 없습니다.</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>분할(split)</translation>
    </message>
    <message>
        <source>Extent of the inner loop of &apos;%1&apos;:</source>
        <translation>&apos;%1&apos;의 안쪽 루프 범위:</translation>
    </message>
    <message>
        <source>Tile</source>
        <translation>타일링(tile)</translation>
    </message>
    <message>
        <source>Tile size along &apos;%1&apos;:</source>
        <translation>&apos;%1&apos; 방향 타일 크기:</translation>
    </message>
    <message>
        <source>Reorder</source>
        <translation>순서 변경(reorder)</translation>
    </message>
    <message>
        <source>The loops of &apos;%1&apos; in their new order:</source>
        <translation>&apos;%1&apos;의 루프 (새 순서):</translation>
    </message>
    <message>
        <source>There is no other stage to compute &apos;%1&apos; at.</source>
        <translation>&apos;%1&apos;을(를) 계산할 다른 스테이지가 없습니다.</translation>
    </message>
    <message>
        <source>Compute at</source>
        <translation>지정 루프에서 계산(compute_at)</translation>
    </message>
    <message>
        <source>Compute &apos;%1&apos; inside the loop:</source>
        <translation>&apos;%1&apos;을(를) 계산할 루프:</translation>
    </message>
    <message>
        <source>Cannot write that line: %1</source>
        <translation>해당 줄을 작성할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>, %1% of peak</source>
        <translation>, 피크의 %1%</translation>
    </message>
    <message>
        <source>correct (max abs error %1, max rel error %2)</source>
        <translation>정확함 (최대 절대 오차 %1, 최대 상대 오차 %2)</translation>
    </message>
    <message>
        <source>WRONG: %1</source>
        <translation>틀림: %1</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%2의 %1: %3</translation>
    </message>
    <message>
        <source>%1 on %7: %2 ms, %3 GFLOP/s%4, %5 threads; %6</source>
        <translation>%7의 %1: %2 ms, %3 GFLOP/s%4, 스레드 %5개; %6</translation>
    </message>
    <message>
        <source>Loops</source>
        <translation>루프</translation>
    </message>
    <message>
        <source>Pictures</source>
        <translation>그림</translation>
    </message>
    <message>
        <source>The schedule drawn as TVM&apos;s TEDD draws it: dataflow, schedule tree, itervar relations</source>
        <translation>TVM의 TEDD처럼 그린 스케줄: 데이터 흐름, 스케줄 트리, itervar 관계</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>대상:</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleGraphView</name>
    <message>
        <source>The schedule&apos;s root: stages computed at root hang here</source>
        <translation>스케줄의 루트: 루트에서 계산되는 스테이지가 여기에 달립니다</translation>
    </message>
    <message>
        <source>Input %1</source>
        <translation>입력 %1</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>스테이지 %1</translation>
    </message>
    <message>
        <source>Loop %1 of stage %2%3</source>
        <translation>스테이지 %2의 루프 %1%3</translation>
    </message>
    <message>
        <source> (leaf %1)</source>
        <translation> (리프 %1)</translation>
    </message>
    <message>
        <source>A split of stage %1</source>
        <translation>스테이지 %1의 split</translation>
    </message>
    <message>
        <source>A fuse of stage %1</source>
        <translation>스테이지 %1의 fuse</translation>
    </message>
    <message>
        <source>%1
Script lines: %2 (click to go to the first)</source>
        <translation>%1
스크립트 줄: %2 (클릭하면 첫 줄로 이동)</translation>
    </message>
    <message>
        <source>Dataflow</source>
        <translation>데이터 흐름</translation>
    </message>
    <message>
        <source>Schedule Tree</source>
        <translation>스케줄 트리</translation>
    </message>
    <message>
        <source>Itervar Relations</source>
        <translation>Itervar 관계</translation>
    </message>
    <message>
        <source>TEDD&apos;s pictures of the schedule: the stages and the tensors they read; the loop nest with where each stage is computed; how splits and fuses made each stage&apos;s loops</source>
        <translation>TEDD의 스케줄 그림: 스테이지와 그것이 읽는 텐서, 각 스테이지가 계산되는 위치를 보여 주는 루프 중첩, split과 fuse가 각 스테이지의 루프를 만든 과정</translation>
    </message>
    <message>
        <source>No schedule: open a TE script or choose a fused function.</source>
        <translation>스케줄이 없습니다: TE 스크립트를 열거나 융합된 함수를 선택하세요.</translation>
    </message>
    <message>
        <source>Laying out the schedule picture</source>
        <translation>스케줄 그림 배치 중</translation>
    </message>
    <message>
        <source>Loops outermost first; a stage hangs under the loop it is computed at.</source>
        <translation>루프는 바깥쪽부터; 스테이지는 자신이 계산되는 루프 아래에 달립니다.</translation>
    </message>
    <message>
        <source>Bold: the loops each stage runs (its leaves).</source>
        <translation>굵게: 각 스테이지가 실행하는 루프(리프).</translation>
    </message>
    <message>
        <source>Producer → consumer, labelled with the tensor read.</source>
        <translation>생산자 → 소비자, 읽는 텐서 이름이 붙어 있습니다.</translation>
    </message>
    <message>
        <source>Cannot lay out the picture: %1</source>
        <translation>그림을 배치할 수 없습니다: %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::Session</name>
    <message>
        <source>Unknown target &apos;%1&apos;: %2</source>
        <translation>알 수 없는 타깃 &apos;%1&apos;: %2</translation>
    </message>
    <message>
        <source>the new script</source>
        <translation>새 스크립트</translation>
    </message>
    <message>
        <source>the script %1</source>
        <translation>스크립트 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n edited schedule(s) of %1</source>
        <translation>
            <numerusform>%1의 편집한 스케줄 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>the tuning settings</source>
        <translation>튜닝 설정</translation>
    </message>
</context>
<context>
    <name>tessel::views::StageView</name>
    <message>
        <source>Pass</source>
        <translation>패스</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>소요 시간</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>변경됨</translation>
    </message>
    <message>
        <source>Hide passes that changed nothing</source>
        <translation>아무것도 변경하지 않은 패스 숨기기</translation>
    </message>
    <message>
        <source>The script&apos;s passes appear once it is compiled.</source>
        <translation>스크립트가 컴파일되면 패스가 표시됩니다.</translation>
    </message>
    <message>
        <source>Open a model to see its graph passes, or a .te script to see its TIR passes.</source>
        <translation>그래프 패스를 보려면 모델을, TIR 패스를 보려면 .te 스크립트를 여세요.</translation>
    </message>
    <message>
        <source>Select a fused function in the graph to see its TIR passes.</source>
        <translation>그래프에서 융합 함수를 선택하면 TIR 패스를 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>Select a pass to see the IR before and after it.</source>
        <translation>패스를 선택하면 그 전후의 IR을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>This pass changed the IR</source>
        <translation>이 패스가 IR을 변경했습니다</translation>
    </message>
    <message>
        <source>This pass changed nothing</source>
        <translation>이 패스는 아무것도 변경하지 않았습니다</translation>
    </message>
    <message>
        <source>Graph passes</source>
        <translation>그래프 패스</translation>
    </message>
    <message>
        <source>The graph as imported, before any pass.</source>
        <translation>패스를 적용하기 전, 가져온 그대로의 그래프입니다.</translation>
    </message>
    <message>
        <source>Before: the IR after %1</source>
        <translation>이전: %1 이후의 IR</translation>
    </message>
    <message>
        <source>Lowering</source>
        <translation>로워링</translation>
    </message>
    <message>
        <source>Before: the fused graph (the last graph pass)</source>
        <translation>이전: 융합된 그래프 (마지막 그래프 패스)</translation>
    </message>
    <message>
        <source>TIR passes: %1</source>
        <translation>TIR 패스: %1</translation>
    </message>
    <message>
        <source>The TIR straight from the schedule, before any pass.</source>
        <translation>패스를 적용하기 전, 스케줄에서 바로 얻은 TIR입니다.</translation>
    </message>
    <message>
        <source>Lowering the schedule gives loop nests over N-d buffers, with the schedule&apos;s annotations on the loops; the passes below turn it into what code generation compiles.</source>
        <translation>스케줄을 로워링하면 N차원 버퍼에 대한 루프 중첩이 만들어지고, 루프에는 스케줄의 어노테이션이 붙습니다. 아래 패스들이 이를 코드 생성이 컴파일하는 형태로 바꿉니다.</translation>
    </message>
    <message>
        <source>Before: the TIR straight from the schedule</source>
        <translation>이전: 스케줄에서 바로 얻은 TIR</translation>
    </message>
    <message>
        <source>LLVM optimisation</source>
        <translation>LLVM 최적화</translation>
    </message>
    <message>
        <source>Before: the LLVM IR as generated</source>
        <translation>이전: 생성된 그대로의 LLVM IR</translation>
    </message>
    <message>
        <source>LLVM&apos;s optimisation pipeline on the IR generated from the TIR.</source>
        <translation>TIR에서 생성된 IR에 대한 LLVM 최적화 파이프라인입니다.</translation>
    </message>
    <message>
        <source>Instruction combining, loop unrolling and vectorisation, inlining and the rest of LLVM&apos;s pipeline at the chosen level. Debug locations survive it, so the code view still links each line to the TIR.</source>
        <translation>선택한 수준에서의 명령어 결합, 루프 언롤링과 벡터화, 인라이닝 등 LLVM 파이프라인 전체입니다. 디버그 위치가 유지되므로 코드 보기는 여전히 각 줄을 TIR에 연결합니다.</translation>
    </message>
    <message>
        <source>changed the IR</source>
        <translation>IR 변경함</translation>
    </message>
    <message>
        <source>changed nothing</source>
        <translation>변경 없음</translation>
    </message>
    <message>
        <source>Comparing the IR before and after %1</source>
        <translation>%1 전후의 IR 비교 중</translation>
    </message>
    <message>
        <source>Could not compare the IR: %1</source>
        <translation>IR을 비교할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>변경 없음</translation>
    </message>
    <message>
        <source>%1 removed, %2 added</source>
        <translation>%1 삭제, %2 추가</translation>
    </message>
    <message>
        <source>Before: nothing, this is the first stage</source>
        <translation>이전: 없음 (첫 번째 단계입니다)</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>이후: %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::TargetChoice</name>
    <message>
        <source>CUDA (sm_80)</source>
        <translation>CUDA (sm_80)</translation>
    </message>
    <message>
        <source>CUDA (sm_90)</source>
        <translation>CUDA (sm_90)</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>이 컴퓨터</translation>
    </message>
    <message>
        <source>Generate code for this machine, the Devices panel&apos;s device, or an NVIDIA GPU (PTX)</source>
        <translation>이 컴퓨터, 장치 패널의 장치 또는 NVIDIA GPU(PTX)용 코드를 생성합니다</translation>
    </message>
</context>
<context>
    <name>tessel::views::TaskTable</name>
    <message>
        <source>pending</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>running</source>
        <translation>실행 중</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>일시 중지됨</translation>
    </message>
    <message>
        <source>done</source>
        <translation>완료</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>중지됨</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>%1/%2 (%3 failed)</source>
        <translation>%1/%2 (실패 %3회)</translation>
    </message>
    <message>
        <source>Functions: %1</source>
        <translation>함수: %1</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>워크로드</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>가중치</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>시행</translation>
    </message>
    <message>
        <source>Best GFLOP/s</source>
        <translation>최고 GFLOP/s</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>속도 향상</translation>
    </message>
    <message>
        <source>State</source>
        <translation>상태</translation>
    </message>
</context>
<context>
    <name>tessel::views::TuningSession</name>
    <message>
        <source>The model has no function with a tunable schedule.</source>
        <translation>모델에 튜닝 가능한 스케줄을 가진 함수가 없습니다.</translation>
    </message>
    <message>
        <source>The script defines no knobs (cfg.define_split, define_knob …): nothing to tune.</source>
        <translation>스크립트가 노브를 정의하지 않습니다 (cfg.define_split, define_knob …): 튜닝할 대상이 없습니다.</translation>
    </message>
    <message>
        <source>Open a model or a TE script template to tune it.</source>
        <translation>튜닝하려면 모델 또는 TE 스크립트 템플릿을 여세요.</translation>
    </message>
    <message>
        <source>Cannot make tuning tasks: %1</source>
        <translation>튜닝 작업을 만들 수 없습니다: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n task(s); records: %1</source>
        <translation>
            <numerusform>작업 %n개; 기록: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Nothing to tune.</source>
        <translation>튜닝할 대상이 없습니다.</translation>
    </message>
    <message>
        <source>The trial budget must be at least 1.</source>
        <translation>시행 횟수는 1 이상이어야 합니다.</translation>
    </message>
    <message>
        <source>Unknown tuner &apos;%1&apos;.</source>
        <translation>알 수 없는 튜너 &apos;%1&apos;입니다.</translation>
    </message>
    <message>
        <source>Stopping after the trial in flight…</source>
        <translation>진행 중인 시행이 끝나면 중지합니다…</translation>
    </message>
    <message>
        <source>Tuning failed: %1</source>
        <translation>튜닝 실패: %1</translation>
    </message>
    <message>
        <source>Tuning %1 failed: %2</source>
        <translation>%1 튜닝 실패: %2</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n trial(s); records: %1</source>
        <translation>
            <numerusform>시행 %n회 후 중지됨; 기록: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n trial(s) measured; records: %1</source>
        <translation>
            <numerusform>완료: 시행 %n회 측정; 기록: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2/%3 trials, best %4 GFLOP/s</source>
        <translation>%1: 시행 %2/%3, 최고 %4 GFLOP/s</translation>
    </message>
    <message>
        <source>, %1× over the default</source>
        <translation>, 기본 스케줄 대비 %1×</translation>
    </message>
    <message>
        <source>Starting the device and the first task…</source>
        <translation>장치와 첫 번째 작업을 시작하는 중…</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>남은 시간 약 %1</translation>
    </message>
    <message>
        <source>ETA ?</source>
        <translation>남은 시간 ?</translation>
    </message>
    <message>
        <source>Paused — %1</source>
        <translation>일시 중지됨 — %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::TuningView</name>
    <message>
        <source>trial</source>
        <translation>시행</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>best</source>
        <translation>최고</translation>
    </message>
    <message>
        <source>measured GFLOP/s</source>
        <translation>측정 GFLOP/s</translation>
    </message>
    <message>
        <source>predicted score</source>
        <translation>예측 점수</translation>
    </message>
    <message>
        <source>planned trial</source>
        <translation>계획된 시행</translation>
    </message>
    <message>
        <source>Records:</source>
        <translation>기록:</translation>
    </message>
    <message>
        <source>all</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>Double-click a record to open its configuration</source>
        <translation>기록을 더블클릭하면 해당 구성이 열립니다</translation>
    </message>
    <message>
        <source>Tuner:</source>
        <translation>튜너:</translation>
    </message>
    <message>
        <source>Trials:</source>
        <translation>시행 횟수:</translation>
    </message>
    <message>
        <source>Early stop:</source>
        <translation>조기 중단:</translation>
    </message>
    <message>
        <source>off</source>
        <translation>사용 안 함</translation>
    </message>
    <message>
        <source>End a task after this many trials without a faster one</source>
        <translation>이 횟수만큼 시행하는 동안 더 빠른 구성이 나오지 않으면 작업을 끝냅니다</translation>
    </message>
    <message>
        <source>Workload:</source>
        <translation>워크로드:</translation>
    </message>
    <message>
        <source>The template&apos;s workload parameters, NAME=VALUE,…</source>
        <translation>템플릿의 워크로드 매개변수, NAME=VALUE,…</translation>
    </message>
    <message>
        <source>table order</source>
        <translation>표 순서대로</translation>
    </message>
    <message>
        <source>heaviest first</source>
        <translation>무거운 작업부터</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>일시 중지</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>재개</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <source>%1 of %2 trials</source>
        <translation>시행 %2회 중 %1회</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>시행</translation>
    </message>
    <message>
        <source>Cost model</source>
        <translation>비용 모델</translation>
    </message>
    <message numerus="yes">
        <source>Predicted vs measured: Spearman ρ = %1 (%n trial(s))</source>
        <translation>
            <numerusform>예측 대 측정: 스피어만 ρ = %1 (시행 %n회)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Predicted vs measured (%n planned trial(s))</source>
        <translation>
            <numerusform>예측 대 측정 (계획된 시행 %n회)</numerusform>
        </translation>
    </message>
    <message>
        <source># %1, trial %2 of the tuning records: --config %3
# %4
</source>
        <translation># %1, 튜닝 기록의 시행 %2: --config %3
# %4
</translation>
    </message>
    <message>
        <source>Opening trial %1 (%2)…</source>
        <translation>시행 %1 (%2) 여는 중…</translation>
    </message>
    <message>
        <source>Opening a tuned configuration</source>
        <translation>튜닝된 구성 여는 중</translation>
    </message>
    <message>
        <source>Trial %1 (%2) is open in the schedule editor as %3</source>
        <translation>시행 %1 (%2)이(가) 스케줄 편집기에 %3(으)로 열렸습니다</translation>
    </message>
    <message>
        <source>Cannot open the configuration: %1</source>
        <translation>구성을 열 수 없습니다: %1</translation>
    </message>
    <message>
        <source>the template&apos;s</source>
        <translation>템플릿의 값</translation>
    </message>
    <message>
        <source>the template&apos;s: %1</source>
        <translation>템플릿의 값: %1</translation>
    </message>
    <message>
        <source>%1, trial %2: %3</source>
        <translation>%1, 시행 %2: %3</translation>
    </message>
</context>
</TS>
