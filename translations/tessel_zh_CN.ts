<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CpuPeak</name>
    <message>
        <source>The peak is unknown: the clock of this CPU could not be read.</source>
        <translation>峰值未知：无法读取此 CPU 的时钟频率。</translation>
    </message>
    <message>
        <source>Peak = %1 cores × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s.
FLOP/cycle: %5 single-precision vectors, two fused multiply-add units per core.
Clock: %6.</source>
        <translation>峰值 = %1 核 × %2 GHz × %3 FLOP/cycle = %4 GFLOP/s。
FLOP/cycle：%5 单精度向量，每核两个融合乘加（FMA）单元。
时钟：%6。</translation>
    </message>
    <message>
        <source>highest cpufreq maximum</source>
        <translation>cpufreq 最大值中的最高值</translation>
    </message>
    <message>
        <source>&quot;cpu MHz&quot; in /proc/cpuinfo</source>
        <translation>/proc/cpuinfo 中的 &quot;cpu MHz&quot;</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>No lesson scripts in %1</source>
        <translation>%1 中没有课程脚本</translation>
    </message>
</context>
<context>
    <name>tessel::views</name>
    <message>
        <source>no such stage</source>
        <translation>没有该阶段</translation>
    </message>
    <message>
        <source>the script has no name for the tensor of stage &apos;%1&apos;</source>
        <translation>脚本中没有阶段“%1”的张量名称</translation>
    </message>
    <message>
        <source>choose a loop to split</source>
        <translation>请选择要 split 的循环</translation>
    </message>
    <message>
        <source>the split factor must be at least 1</source>
        <translation>split 因子必须至少为 1</translation>
    </message>
    <message>
        <source>choose the first of two loops to tile</source>
        <translation>请选择要 tile 的两个循环中的第一个</translation>
    </message>
    <message>
        <source>tile needs a second loop after &apos;%1&apos;</source>
        <translation>tile 需要“%1”之后的第二个循环</translation>
    </message>
    <message>
        <source>the tile factors must be at least 1</source>
        <translation>tile 因子必须至少为 1</translation>
    </message>
    <message>
        <source>reorder needs at least two loops</source>
        <translation>reorder 至少需要两个循环</translation>
    </message>
    <message>
        <source>choose the outer of two loops to fuse</source>
        <translation>请选择要 fuse 的两个循环中的外层循环</translation>
    </message>
    <message>
        <source>fuse needs the next loop after &apos;%1&apos;</source>
        <translation>fuse 需要“%1”之后的下一个循环</translation>
    </message>
    <message>
        <source>choose a loop</source>
        <translation>请选择一个循环</translation>
    </message>
    <message>
        <source>choose another stage to compute &apos;%1&apos; at</source>
        <translation>请选择要在其中计算“%1”的另一个阶段</translation>
    </message>
    <message>
        <source>choose a loop of stage &apos;%1&apos;</source>
        <translation>请选择阶段“%1”中的一个循环</translation>
    </message>
    <message>
        <source>unknown action</source>
        <translation>未知操作</translation>
    </message>
</context>
<context>
    <name>tessel::views::CodeView</name>
    <message>
        <source>TE script</source>
        <translation>TE 脚本</translation>
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
        <translation>汇编</translation>
    </message>
    <message>
        <source>C</source>
        <translation>C</translation>
    </message>
    <message>
        <source>Select a fused function in the graph, or open a .te script.</source>
        <translation>请在图中选择一个融合函数，或打开一个 .te 脚本。</translation>
    </message>
    <message>
        <source>Before optimisation</source>
        <translation>优化前</translation>
    </message>
    <message>
        <source>Optimised</source>
        <translation>优化后</translation>
    </message>
    <message>
        <source>Show the LLVM IR as generated from the TIR, or after LLVM&apos;s optimisation</source>
        <translation>显示由 TIR 直接生成的 LLVM IR，或经过 LLVM 优化后的 LLVM IR</translation>
    </message>
    <message>
        <source>Show or hide the %1 pane</source>
        <translation>显示或隐藏 %1 窗格</translation>
    </message>
    <message>
        <source># This function has no TE script.</source>
        <translation># 此函数没有 TE 脚本。</translation>
    </message>
    <message>
        <source>Linking the lines of %1</source>
        <translation>正在关联 %1 的代码行</translation>
    </message>
    <message>
        <source>There is no text to link.</source>
        <translation>没有可关联的文本。</translation>
    </message>
    <message>
        <source>Lowering recorded no script lines for this function.</source>
        <translation>降级过程没有记录此函数的脚本行。</translation>
    </message>
    <message>
        <source>The script is not the one lowering recorded the lines of.</source>
        <translation>该脚本不是降级过程记录其行的那个脚本。</translation>
    </message>
    <message>
        <source>Nothing in it matches a line of the TIR.</source>
        <translation>其中没有任何内容与 TIR 的行匹配。</translation>
    </message>
    <message>
        <source>not linked</source>
        <translation>未关联</translation>
    </message>
    <message>
        <source>linked by records</source>
        <translation>按记录关联</translation>
    </message>
    <message>
        <source>Lowering recorded where the script made and changed every stage and loop: each script line links to the TIR it made.</source>
        <translation>降级过程记录了脚本创建和修改每个阶段与循环的位置：脚本的每一行都关联到它生成的 TIR。</translation>
    </message>
    <message>
        <source>linked by line table</source>
        <translation>按行表关联</translation>
    </message>
    <message>
        <source>The C backend records, for every line it prints, the TIR statement it came from.</source>
        <translation>C 后端为其输出的每一行记录它来自的 TIR 语句。</translation>
    </message>
    <message>
        <source>Could not link the code view&apos;s lines: %1</source>
        <translation>无法关联代码视图的各行：%1</translation>
    </message>
    <message>
        <source>Panes:</source>
        <translation>窗格：</translation>
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
        <translation>目标：</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>Show the PTX LLVM wrote, or the SASS the GPU runs (ptxas and nvdisasm of the CUDA toolkit)</source>
        <translation>显示 LLVM 生成的 PTX，或 GPU 执行的 SASS（CUDA 工具包的 ptxas 和 nvdisasm）</translation>
    </message>
    <message>
        <source>For a GPU the TIR pane shows the kernels split from the function; the script&apos;s lines are recorded for the function&apos;s TIR before the split.</source>
        <translation>对于 GPU，TIR 窗格显示从函数中拆分出的内核；脚本的行记录的是拆分前函数的 TIR。</translation>
    </message>
    <message>
        <source>SASS has no line table back to the PTX here: click the PTX for links.</source>
        <translation>此处 SASS 没有回到 PTX 的行表：请点击 PTX 查看关联。</translation>
    </message>
    <message>
        <source>Assembling the PTX with ptxas and disassembling it with nvdisasm…</source>
        <translation>正在用 ptxas 汇编 PTX 并用 nvdisasm 反汇编…</translation>
    </message>
    <message>
        <source>Disassembling the SASS of %1</source>
        <translation>正在反汇编 %1 的 SASS</translation>
    </message>
    <message>
        <source>nvdisasm printed nothing.</source>
        <translation>nvdisasm 没有输出任何内容。</translation>
    </message>
    <message>
        <source>No SASS: %1</source>
        <translation>没有 SASS：%1</translation>
    </message>
    <message>
        <source># The assembly is being made: it follows the LLVM IR in a moment.</source>
        <translation># 正在生成汇编：稍后将在 LLVM IR 之后显示。</translation>
    </message>
    <message>
        <source>being made</source>
        <translation>生成中</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareChart</name>
    <message>
        <source>Milliseconds per run of the model, per fused function and end to end, for side A and side B (log scale). Beside each pair: B&apos;s time divided by A&apos;s, green where B is faster.</source>
        <translation>A 侧与 B 侧每次运行模型的毫秒数，按融合函数及整个模型分别列出（对数刻度）。每对旁边的值为 B 的时间除以 A 的时间，B 更快时显示为绿色。</translation>
    </message>
    <message>
        <source>ms per run of the model (log scale)</source>
        <translation>每次运行模型的 ms（对数刻度）</translation>
    </message>
    <message>
        <source>end to end</source>
        <translation>整个模型</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message numerus="yes">
        <source>B / A per fused function and end to end: below 1, B is faster (median of %n round(s))</source>
        <translation>
            <numerusform>各融合函数及整个模型的 B / A：小于 1 表示 B 更快（%n 轮的中位数）</numerusform>
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
        <translation>尚无对比结果：请选择 A 侧和 B 侧，然后按“运行”。</translation>
    </message>
    <message>
        <source>only on A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>only on B</source>
        <translation>仅在 B 中</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareSession</name>
    <message>
        <source>untuned</source>
        <translation>未调优</translation>
    </message>
    <message>
        <source>tuned (chosen configurations)</source>
        <translation>已调优（所选配置）</translation>
    </message>
    <message>
        <source>(no records file)</source>
        <translation>（无记录文件）</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation>（在 %1 上运行）</translation>
    </message>
    <message numerus="yes">
        <source>, %n thread(s)</source>
        <translation>
            <numerusform>，%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>Open a model to compare it untuned and tuned.</source>
        <translation>请打开一个模型，以对比其未调优与调优后的表现。</translation>
    </message>
    <message>
        <source>Side %1: the model compiles with the default schedules (Run &gt; Tuned Configurations): choose tuned configurations there, or a records file here.</source>
        <translation>%1 侧：模型将使用默认调度编译（运行 &gt; 调优配置）：请在那里选择调优配置，或在此处选择记录文件。</translation>
    </message>
    <message>
        <source>Choose a records file for side %1.</source>
        <translation>请为 %1 侧选择记录文件。</translation>
    </message>
    <message>
        <source>Side %1: the Tuning view&apos;s records file %2 does not exist yet: tune first, or choose a records file.</source>
        <translation>%1 侧：调优视图的记录文件 %2 尚不存在：请先调优，或选择一个记录文件。</translation>
    </message>
    <message>
        <source>Side %1: no records file %2.</source>
        <translation>%1 侧：记录文件 %2 不存在。</translation>
    </message>
    <message>
        <source>Cannot read the input shapes: %1</source>
        <translation>无法读取输入形状：%1</translation>
    </message>
    <message>
        <source>Comparing %1 against %2…</source>
        <translation>正在对比 %1 与 %2…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>The comparison failed: %1</source>
        <translation>对比失败：%1</translation>
    </message>
    <message>
        <source>Compare: %1</source>
        <translation>对比：%1</translation>
    </message>
    <message numerus="yes">
        <source>end to end A %1 ms, B %2 ms, B/A %3 (median of %n round(s))</source>
        <translation>
            <numerusform>整个模型 A %1 ms，B %2 ms，B/A %3（%n 轮的中位数）</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancelled: %1</source>
        <translation>已取消：%1</translation>
    </message>
    <message>
        <source>Cancelled before the first round.</source>
        <translation>在第一轮之前已取消。</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Done: %1; the outputs agree.</source>
        <translation>已完成：%1；输出一致。</translation>
    </message>
    <message>
        <source>Nothing to export yet: run a comparison first.</source>
        <translation>尚无可导出的内容：请先运行一次对比。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>已写入 %1。</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareTable</name>
    <message>
        <source>end to end</source>
        <translation>整个模型</translation>
    </message>
    <message>
        <source>only on B</source>
        <translation>仅在 B 中</translation>
    </message>
    <message>
        <source>only on A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>B&apos;s time divided by A&apos;s: below 1, B is faster.</source>
        <translation>B 的时间除以 A 的时间：小于 1 表示 B 更快。</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
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
        <translation>已调优</translation>
    </message>
</context>
<context>
    <name>tessel::views::CompareView</name>
    <message>
        <source>Schedules</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>Records file</source>
        <translation>记录文件</translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation>运行于</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>Rounds:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Rounds of A then B, each timed whole and per function; the figures are medians.</source>
        <translation>先 A 后 B 的轮数，每轮都测量整个模型及各函数的时间；显示的数值为中位数。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
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
        <translation>将图表导出为 PNG 图像</translation>
    </message>
    <message>
        <source>Export the chart as a PDF document</source>
        <translation>将图表导出为 PDF 文档</translation>
    </message>
    <message>
        <source>Export the figures as CSV, at full precision</source>
        <translation>以全精度将数据导出为 CSV</translation>
    </message>
    <message>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Choose what A and B are, then Run: both are measured in one run, interleaved.</source>
        <translation>请选择 A 和 B 各是什么，然后运行：两者在同一次运行中交替测量。</translation>
    </message>
    <message>
        <source>Untuned (default schedules)</source>
        <translation>未调优（默认调度）</translation>
    </message>
    <message>
        <source>Tuned: Run &gt; Tuned Configurations</source>
        <translation>已调优：运行 &gt; 调优配置</translation>
    </message>
    <message>
        <source>Tuned: the Tuning view&apos;s records</source>
        <translation>已调优：调优视图的记录</translation>
    </message>
    <message>
        <source>Tuned: a records file</source>
        <translation>已调优：记录文件</translation>
    </message>
    <message>
        <source>a .jsonl records file</source>
        <translation>.jsonl 记录文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>This machine, or a server or tracker key of the Devices panel</source>
        <translation>本机，或设备面板中的服务器或跟踪器键</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Records file for side %1</source>
        <translation>%1 侧的记录文件</translation>
    </message>
    <message>
        <source>Tuning records (*.jsonl *.json);;All files (*)</source>
        <translation>调优记录 (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Compile both sides and measure them in one run</source>
        <translation>编译两侧，并在同一次运行中测量</translation>
    </message>
    <message>
        <source>Open a model first</source>
        <translation>请先打开一个模型</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>已写入 %1。</translation>
    </message>
    <message>
        <source>Export the comparison</source>
        <translation>导出对比结果</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceChoice</name>
    <message>
        <source>server %1</source>
        <translation>服务器 %1</translation>
    </message>
    <message>
        <source>%1 via tracker %2</source>
        <translation>经由跟踪器 %2 的 %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>did not build</source>
        <translation>未能构建</translation>
    </message>
    <message>
        <source>did not load</source>
        <translation>未能加载</translation>
    </message>
    <message>
        <source>runtime error</source>
        <translation>运行时错误</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>wrong result</source>
        <translation>结果错误</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>device unreachable</source>
        <translation>无法连接设备</translation>
    </message>
    <message>
        <source>device unreachable: this machine&apos;s tessel-rpc server did not answer (%1). Check that build/bin/tessel-rpc exists and runs; Run again starts it anew.</source>
        <translation>无法连接设备：本机的 tessel-rpc 服务器没有应答（%1）。请检查 build/bin/tessel-rpc 是否存在并能运行；再次运行会重新启动它。</translation>
    </message>
    <message>
        <source>device unreachable: %1 did not give a server of key %2 (%3). Check in the Devices panel that the tracker runs and has a free server of that key, or choose Use This Machine.</source>
        <translation>无法连接设备：%1 没有提供键 %2 的服务器（%3）。请在设备面板中检查跟踪器是否在运行并有该键的空闲服务器，或选择“使用本机”。</translation>
    </message>
    <message>
        <source>device unreachable: nothing answered at %1 (%2). Check that tessel-rpc server runs there (the Devices panel shows its state), or choose Use This Machine.</source>
        <translation>无法连接设备：%1 处没有任何应答（%2）。请检查那里是否在运行 tessel-rpc server（设备面板显示其状态），或选择“使用本机”。</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceList</name>
    <message>
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
    <message>
        <source>1 core</source>
        <translation>1 个核心</translation>
    </message>
    <message>
        <source>%1 cores</source>
        <translation>%1 个核心</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Total / free / pending</source>
        <translation>总数 / 空闲 / 等待</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>往返时间</translation>
    </message>
    <message>
        <source>Last heartbeat</source>
        <translation>最近心跳</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Tracker</source>
        <translation>跟踪器</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>online</source>
        <translation>在线</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>all held</source>
        <translation>全部占用</translation>
    </message>
    <message>
        <source>no server</source>
        <translation>无服务器</translation>
    </message>
    <message>
        <source>server #%1</source>
        <translation>服务器 #%1</translation>
    </message>
    <message>
        <source>1 server</source>
        <translation>1 台服务器</translation>
    </message>
    <message>
        <source>%1 servers</source>
        <translation>%1 台服务器</translation>
    </message>
    <message>
        <source>unknown: tracker unreachable</source>
        <translation>未知：无法连接跟踪器</translation>
    </message>
    <message>
        <source>Run and Measure use this device</source>
        <translation>运行和测量使用此设备</translation>
    </message>
</context>
<context>
    <name>tessel::views::DevicePanel</name>
    <message>
        <source>Add Tracker</source>
        <translation>添加跟踪器</translation>
    </message>
    <message>
        <source>Add Server</source>
        <translation>添加服务器</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Token File</source>
        <translation>令牌文件</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机:</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口:</translation>
    </message>
    <message>
        <source>Token file:</source>
        <translation>令牌文件:</translation>
    </message>
    <message>
        <source>Add Tracker…</source>
        <translation>添加跟踪器…</translation>
    </message>
    <message>
        <source>Add Server…</source>
        <translation>添加服务器…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Use for Runs</source>
        <translation>用于运行</translation>
    </message>
    <message>
        <source>Use This Machine</source>
        <translation>使用本机</translation>
    </message>
    <message>
        <source>%1 is listed already.</source>
        <translation>%1 已在列表中。</translation>
    </message>
    <message>
        <source>Pick a server or a tracker&apos;s key first.</source>
        <translation>请先选择一台服务器或跟踪器的一个键。</translation>
    </message>
    <message>
        <source>Pick one of the tracker&apos;s keys or servers.</source>
        <translation>请选择跟踪器的一个键或一台服务器。</translation>
    </message>
    <message>
        <source>%1 has not answered yet: wait for its facts.</source>
        <translation>%1 尚未应答：请等待其设备信息。</translation>
    </message>
    <message>
        <source>Tessel cannot build for %1: %2</source>
        <translation>Tessel 无法为 %1 构建：%2</translation>
    </message>
    <message>
        <source>Tessel cannot build for %1&apos;s target %2.</source>
        <translation>Tessel 无法为 %1 的目标 %2 构建。</translation>
    </message>
    <message>
        <source>Run and Measure use: %1 (target %2).</source>
        <translation>运行和测量使用：%1（目标 %2）。</translation>
    </message>
    <message>
        <source>The tracker has no server of key %1 now: start one with tessel-rpc server --tracker %2:%3 --key %1.</source>
        <translation>跟踪器现在没有键 %1 的服务器：请用 tessel-rpc server --tracker %2:%3 --key %1 启动一个。</translation>
    </message>
    <message>
        <source>%1 does not answer: %2</source>
        <translation>%1 没有应答：%2</translation>
    </message>
    <message>
        <source>It does not answer: %1 Runs fail until it does; Use This Machine runs here.</source>
        <translation>它没有应答：%1 在它应答之前运行都会失败；“使用本机”则在此运行。</translation>
    </message>
    <message>
        <source>Checking that it answers…</source>
        <translation>正在检查它是否应答…</translation>
    </message>
</context>
<context>
    <name>tessel::views::DeviceProbe</name>
    <message>
        <source>Nothing listens at %1 (%2): is %3 running there?</source>
        <translation>%1 上没有程序在监听（%2）：那里在运行 %3 吗？</translation>
    </message>
    <message>
        <source>No answer within %1 s: check the address and the firewall.</source>
        <translation>%1 秒内没有应答：请检查地址和防火墙。</translation>
    </message>
    <message>
        <source>%1 closed the connection (%2): check that it is a %3 and its log.</source>
        <translation>%1 关闭了连接（%2）：请确认它是 %3，并查看其日志。</translation>
    </message>
    <message>
        <source>Not a Tessel RPC endpoint (%1): check the port.</source>
        <translation>不是 Tessel RPC 端点（%1）：请检查端口。</translation>
    </message>
    <message>
        <source>Missing token: this endpoint wants one; give its token file.</source>
        <translation>缺少令牌：此端点需要令牌，请指定其令牌文件。</translation>
    </message>
    <message>
        <source>Wrong token: check the token file %1.</source>
        <translation>令牌错误：请检查令牌文件 %1。</translation>
    </message>
    <message>
        <source>Protocol versions differ (%1): update tessel-rpc on one side.</source>
        <translation>协议版本不同（%1）：请更新其中一端的 tessel-rpc。</translation>
    </message>
    <message>
        <source>The server is busy (%1): try again when its sessions end.</source>
        <translation>服务器正忙（%1）：请在其会话结束后重试。</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphDocument</name>
    <message>
        <source>imported</source>
        <translation>导入后</translation>
    </message>
    <message>
        <source>after %1</source>
        <translation>%1 之后</translation>
    </message>
    <message>
        <source>after %1 (unchanged)</source>
        <translation>%1 之后（无变化）</translation>
    </message>
    <message>
        <source>fused</source>
        <translation>融合后</translation>
    </message>
    <message>
        <source>graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Graph output: written by the function that computes it.</source>
        <translation>图输出：由计算它的函数写入。</translation>
    </message>
    <message>
        <source>Removed by %1: it is not in the compiled model.</source>
        <translation>已被 %1 移除：不在编译后的模型中。</translation>
    </message>
    <message>
        <source>Not in the compiled model (a graph pass removed or replaced it).</source>
        <translation>不在编译后的模型中（某个图 Pass 移除或替换了它）。</translation>
    </message>
    <message>
        <source>Graph input: never fused; a parameter of the functions that read it.</source>
        <translation>图输入：从不融合；它是读取它的函数的参数。</translation>
    </message>
    <message>
        <source>%1 is %2: it fuses into the output of a convolution or dense operator, with other element-wise operators, or into a following injective operator or reduction.</source>
        <translation>%1 属于%2：它可融合进卷积或 dense 算子的输出，可与其他逐元素算子融合，也可融合进其后的单射算子或归约。</translation>
    </message>
    <message>
        <source>%1 is injective: it fuses with other injective and element-wise operators.</source>
        <translation>%1 属于单射：它与其他单射算子和逐元素算子融合。</translation>
    </message>
    <message>
        <source>%1 is a reduction: element-wise operators before it fuse as its inputs, and element-wise operators after it.</source>
        <translation>%1 属于归约：其前面的逐元素算子作为输入融合进来，其后面的逐元素算子也会融合进来。</translation>
    </message>
    <message>
        <source>%1 is out-element-wise-fusable: it starts a function and takes the element-wise operators after it.</source>
        <translation>%1 属于输出逐元素可融合：它开启一个函数，并吸收其后的逐元素算子。</translation>
    </message>
    <message>
        <source>%1 is opaque: it starts its own function and nothing fuses with it.</source>
        <translation>%1 属于不透明：它单独开启一个函数，没有任何算子与它融合。</translation>
    </message>
    <message>
        <source>element-wise</source>
        <translation>逐元素</translation>
    </message>
    <message>
        <source>broadcast</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>injective</source>
        <translation>单射</translation>
    </message>
    <message>
        <source>reduction</source>
        <translation>归约</translation>
    </message>
    <message>
        <source>out-element-wise-fusable</source>
        <translation>输出逐元素可融合</translation>
    </message>
    <message>
        <source>opaque</source>
        <translation>不透明</translation>
    </message>
    <message>
        <source>Cannot be compiled: %1.</source>
        <translation>无法编译：%1。</translation>
    </message>
    <message>
        <source>In subgraph %1 of %2: compiled on its own and run by the control-flow executor.</source>
        <translation>位于 %2 的子图 %1 中：单独编译，由控制流执行器运行。</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphExport</name>
    <message>
        <source>There is no graph to export.</source>
        <translation>没有可导出的图。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>The graph is too large for an image.</source>
        <translation>图太大，无法生成图像。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphPanel</name>
    <message>
        <source>The graph after which pass</source>
        <translation>显示哪个 Pass 之后的图</translation>
    </message>
    <message>
        <source>Find node or operator</source>
        <translation>查找节点或算子</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole graph (0)</source>
        <translation>显示整个图 (0)</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom in (+)</source>
        <translation>放大 (+)</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Zoom out (-)</source>
        <translation>缩小 (-)</translation>
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
        <translation>导出</translation>
    </message>
    <message>
        <source>Laying out the graph</source>
        <translation>正在布局图</translation>
    </message>
    <message>
        <source>A TE script has no model graph.</source>
        <translation>TE 脚本没有模型图。</translation>
    </message>
    <message>
        <source>Open a model to see its graph.</source>
        <translation>打开模型以查看其图。</translation>
    </message>
    <message>
        <source>The graph could not be laid out.</source>
        <translation>无法对图进行布局。</translation>
    </message>
    <message>
        <source>Graph layout failed: %1</source>
        <translation>图布局失败：%1</translation>
    </message>
    <message>
        <source>The graph is empty.</source>
        <translation>图为空。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Graphviz files (*.dot *.gv)</source>
        <translation>Graphviz 文件 (*.dot *.gv)</translation>
    </message>
    <message>
        <source>Export Graph</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>Graph exported to %1</source>
        <translation>图已导出到 %1</translation>
    </message>
    <message>
        <source>%1 ms · %2 %</source>
        <translation>%1 ms · %2%</translation>
    </message>
    <message>
        <source>%1
%2 ms, %3 % of the model&apos;s time, %4 GFLOP/s (measured on %5)</source>
        <translation>%1
%2 ms，占模型耗时的 %3%，%4 GFLOP/s（测量于 %5）</translation>
    </message>
    <message>
        <source>Colour: time</source>
        <translation>颜色：时间</translation>
    </message>
    <message>
        <source>Colour: roofline</source>
        <translation>颜色：屋顶线</translation>
    </message>
    <message>
        <source>What a profiled run colours: each function&apos;s share of the model&apos;s time, or how far it stays below its roofline (min of the FMA peak and its arithmetic intensity × the measured memory bandwidth): the darker, the further</source>
        <translation>性能分析运行所着色的内容：每个函数在模型时间中的占比，或它离屋顶线（FMA 峰值与其算术强度 × 实测内存带宽二者中的较小值）有多远：颜色越深，差距越大</translation>
    </message>
    <message>
        <source> · %1 % of roofline</source>
        <translation> · 屋顶线的 %1 %</translation>
    </message>
    <message>
        <source>
%1 % of its roofline (%2-bound)</source>
        <translation>
达到屋顶线的 %1 %（%2 受限）</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Collapse All Subgraphs</source>
        <translation>折叠所有子图</translation>
    </message>
    <message>
        <source>Expand All Subgraphs</source>
        <translation>展开所有子图</translation>
    </message>
    <message>
        <source>Subgraphs</source>
        <translation>子图</translation>
    </message>
    <message>
        <source>Collapse every subgraph (If&apos;s branches, a Loop&apos;s or Scan&apos;s body) to one box, or expand them all; double-click a subgraph&apos;s label or box for one</source>
        <translation>将每个子图（If 的分支、Loop 或 Scan 的循环体）折叠为一个框，或全部展开；双击子图的标签或框可单独折叠或展开</translation>
    </message>
    <message>
        <source>Expand %1</source>
        <translation>展开 %1</translation>
    </message>
    <message>
        <source>Collapse %1</source>
        <translation>折叠 %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::GraphScene</name>
    <message numerus="yes">
        <source>Fused function %1 (%n operators)</source>
        <translation>
            <numerusform>融合函数 %1（%n 个算子）</numerusform>
        </translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>属于 %1</translation>
    </message>
    <message>
        <source>1 node</source>
        <translation>1 个节点</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2 (shown, not compiled): double-click its label to collapse it</source>
        <translation>%2 的子图 %1（仅显示，不编译）：双击其标签可折叠</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2, collapsed (%3): double-click to expand it</source>
        <translation>%2 的子图 %1，已折叠（%3）：双击可展开</translation>
    </message>
    <message>
        <source>Cannot be compiled: %1</source>
        <translation>无法编译：%1</translation>
    </message>
</context>
<context>
    <name>tessel::views::InputShapesDialog</name>
    <message>
        <source>%1 has %2 dimensions, %3 given</source>
        <translation>%1 有 %2 个维度，但给出了 %3 个</translation>
    </message>
    <message>
        <source>%1: dimension %2 is not a positive number</source>
        <translation>%1：第 %2 维不是正数</translation>
    </message>
    <message>
        <source>%1: dimension %2 is fixed to %3 by the model</source>
        <translation>%1：第 %2 维已被模型固定为 %3</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>%1: give a shape such as %2</source>
        <translation>%1：请给出形状，例如 %2</translation>
    </message>
    <message>
        <source>%1: dimension %2 is unknown (?): give its size</source>
        <translation>%1：第 %2 维大小未知（?）：请给出其大小</translation>
    </message>
    <message>
        <source>%1: dimension %2 (%3) is unknown (?): give its size</source>
        <translation>%1：第 %2 维（%3）大小未知（?）：请给出其大小</translation>
    </message>
    <message>
        <source>%1 has inputs with dynamic dimensions (shown by name or as ?). Tessel compiles for fixed shapes: give each input&apos;s dimensions, separated by commas.</source>
        <translation>%1 包含具有动态维度（以名称或 ? 显示）的输入。Tessel 按固定形状编译：请给出每个输入的各维大小，用逗号分隔。</translation>
    </message>
    <message>
        <source>The dimensions of %1, e.g. %2 (as tesselc --input-shape %1:%2 takes them)</source>
        <translation>%1 的各维大小，例如 %2（与 tesselc --input-shape %1:%2 的写法相同）</translation>
    </message>
</context>
<context>
    <name>tessel::views::LessonChart</name>
    <message>
        <source>Each step&apos;s time: this machine&apos;s measurement next to the tutorial&apos;s figure (log scale). Click a bar to open its step.</source>
        <translation>每个步骤的耗时：本机的测量值与教程的数据并列显示（对数刻度）。点击柱形可打开该步骤。</translation>
    </message>
    <message>
        <source>Tutorial</source>
        <translation>教程</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <source>No times to draw: the steps need a GPU
to be timed, and the tutorial printed
none per step.</source>
        <translation>没有可绘制的时间：这些步骤需要 GPU
才能计时，而教程没有给出
每一步的数据。</translation>
    </message>
    <message>
        <source>No times yet: Measure a step
to draw its bar.</source>
        <translation>尚无时间：测量一个步骤
即可绘制其柱形。</translation>
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
        <translation>错误</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Tutorial</source>
        <translation>教程</translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
</context>
<context>
    <name>tessel::views::LessonView</name>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>在编辑器中打开</translation>
    </message>
    <message>
        <source>Run this step on this machine and check it against the default schedule</source>
        <translation>在本机上运行此步骤，并与默认调度核对结果</translation>
    </message>
    <message>
        <source>Edit this step&apos;s schedule in the schedule editor</source>
        <translation>在调度编辑器中编辑此步骤的调度</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>TIR</source>
        <translation>TIR</translation>
    </message>
    <message>
        <source>Assembly</source>
        <translation>汇编</translation>
    </message>
    <message>
        <source>Tutorial figures: &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt; by %3 (docs %4).</source>
        <translation>教程数据：%3 的 &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt;（文档 %4）。</translation>
    </message>
    <message>
        <source>Changes (+%1 −%2)</source>
        <translation>更改 (+%1 −%2)</translation>
    </message>
    <message>
        <source># Lowering…</source>
        <translation># 正在降级…</translation>
    </message>
    <message>
        <source>Lowering %1</source>
        <translation>正在降级 %1</translation>
    </message>
    <message>
        <source>Tutorial (%1): %2</source>
        <translation>教程 (%1)：%2</translation>
    </message>
    <message>
        <source>, %1× the baseline</source>
        <translation>，相对基线 %1×</translation>
    </message>
    <message>
        <source>Tutorial: no figure (%1)</source>
        <translation>教程：无数据（%1）</translation>
    </message>
    <message>
        <source>not in the tutorial</source>
        <translation>教程中没有</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>WRONG: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>This machine: measuring…</source>
        <translation>本机：正在测量…</translation>
    </message>
    <message>
        <source>This machine: not measured yet</source>
        <translation>本机：尚未测量</translation>
    </message>
    <message>
        <source>Measuring %1</source>
        <translation>正在测量 %1</translation>
    </message>
    <message>
        <source>This machine: failed: %1</source>
        <translation>本机：失败：%1</translation>
    </message>
    <message>
        <source>%1, %2 GFLOP/s, %3</source>
        <translation>%1，%2 GFLOP/s，%3</translation>
    </message>
    <message>
        <source>This machine: %1</source>
        <translation>本机：%1</translation>
    </message>
    <message>
        <source>The measurement on %1 failed: %2</source>
        <translation>在 %1 上的测量失败：%2</translation>
    </message>
    <message>
        <source>Measuring %1 on %2 failed: %3</source>
        <translation>在 %2 上测量 %1 失败：%3</translation>
    </message>
    <message>
        <source>The ladder to follow: GEMM on this CPU, or on an NVIDIA GPU (PTX)</source>
        <translation>要跟随的阶梯：本机 CPU 上的 GEMM，或 NVIDIA GPU（PTX）上的 GEMM</translation>
    </message>
    <message>
        <source>Cannot be timed here: %1</source>
        <translation>无法在此计时：%1</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>Tutorial (%1): no figure for this step</source>
        <translation>教程（%1）：此步骤没有数据</translation>
    </message>
    <message>
        <source>Not timed here, the step is for a GPU: %1. Its TIR and PTX are below; scripts/gpu-check.sh times the ladder on a GPU host.</source>
        <translation>未在此计时，此步骤面向 GPU：%1。其 TIR 和 PTX 见下方；scripts/gpu-check.sh 在 GPU 主机上为各步骤计时。</translation>
    </message>
</context>
<context>
    <name>tessel::views::MainWindow</name>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Tessel projects (*.tessel)</source>
        <translation>Tessel 项目 (*.tessel)</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Model or Script…</source>
        <translation>打开模型或脚本(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Project…</source>
        <translation>打开项目(&amp;P)…</translation>
    </message>
    <message>
        <source>Recent &amp;Files</source>
        <translation>最近的文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>示例(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Reset Layout</source>
        <translation>重置布局</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Compile and Run &amp;Model</source>
        <translation>编译并运行模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Cancel Running Work</source>
        <translation>取消正在运行的任务(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Pass Reference</source>
        <translation>Pass 参考(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;GEMM Lesson</source>
        <translation>GEMM 课程(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;About Tessel</source>
        <translation>关于 Tessel(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the running work</source>
        <translation>取消正在运行的任务</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>图</translation>
    </message>
    <message>
        <source>Properties</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Stages</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>GEMM Lesson</source>
        <translation>GEMM 课程</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>untitled.te</source>
        <translation>未命名.te</translation>
    </message>
    <message>
        <source>Open model or script</source>
        <translation>打开模型或脚本</translation>
    </message>
    <message>
        <source>Models and scripts (*.onnx *.te *.tessel);;ONNX models (*.onnx);;TE scripts (*.te);;Tessel projects (*.tessel)</source>
        <translation>模型和脚本 (*.onnx *.te *.tessel);;ONNX 模型 (*.onnx);;TE 脚本 (*.te);;Tessel 项目 (*.tessel)</translation>
    </message>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>Reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>Opening %1 cancelled: its input shapes are needed.</source>
        <translation>已取消打开 %1：需要提供其输入形状。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Compiling %1…</source>
        <translation>正在编译 %1…</translation>
    </message>
    <message>
        <source>Compiling %1</source>
        <translation>正在编译 %1</translation>
    </message>
    <message>
        <source>%1: %2 fused functions, compiled in %3 s</source>
        <translation>%1：%2 个融合函数，编译耗时 %3 s</translation>
    </message>
    <message>
        <source>Cannot compile %1: %2</source>
        <translation>无法编译 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open project %1: %2</source>
        <translation>无法打开项目 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save project</source>
        <translation>保存项目</translation>
    </message>
    <message>
        <source>Cannot write the example model: %1</source>
        <translation>无法写入示例模型：%1</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(无)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>ResNet-18 (model zoo) and the GEMM lesson</source>
        <translation>ResNet-18（模型库）和 GEMM 课程</translation>
    </message>
    <message>
        <source>%1 (model zoo)</source>
        <translation>%1（模型库）</translation>
    </message>
    <message>
        <source>Writing %1</source>
        <translation>正在写入 %1</translation>
    </message>
    <message>
        <source>GEMM: %1</source>
        <translation>GEMM：%1</translation>
    </message>
    <message>
        <source>Template: %1</source>
        <translation>模板：%1</translation>
    </message>
    <message>
        <source>Open a model first (File &gt; Open, or File &gt; Examples).</source>
        <translation>请先打开一个模型（文件 &gt; 打开，或 文件 &gt; 示例）。</translation>
    </message>
    <message>
        <source>Compiling and running %1</source>
        <translation>正在编译并运行 %1</translation>
    </message>
    <message>
        <source>%1: %2 ms (median of %3 runs, %4 threads), edited schedules: %5, compiled in %6 s</source>
        <translation>%1：%2 ms（%3 次运行的中位数，%4 个线程），%5 个已编辑的调度，编译耗时 %6 s</translation>
    </message>
    <message>
        <source>Compile and run failed: %1</source>
        <translation>编译并运行失败：%1</translation>
    </message>
    <message>
        <source>About Tessel</source>
        <translation>关于 Tessel</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Bad input shape: %1</source>
        <translation>输入形状无效：%1</translation>
    </message>
    <message>
        <source>&amp;Target…</source>
        <translation>目标(&amp;T)…</translation>
    </message>
    <message>
        <source>The machine every compile generates code for</source>
        <translation>每次编译生成代码所针对的机器</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1（面向 %2）</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Target: %1</source>
        <translation>目标：%1</translation>
    </message>
    <message>
        <source>Compile and Run Model runs on this machine, but the target is %1: choose Settings &gt; Target &gt; host to run it here, or a device of that kind in the Devices panel.</source>
        <translation>“编译并运行模型”在本机上运行，但目标是 %1：请选择 设置 &gt; 目标 &gt; host 以在此运行，或在设备面板中选择该类型的设备。</translation>
    </message>
    <message>
        <source>&amp;Maximise Pane</source>
        <translation>最大化窗格(&amp;M)</translation>
    </message>
    <message>
        <source>Let the pane with the keyboard focus fill the window; press %1 again to bring the other views back</source>
        <translation>让具有键盘焦点的窗格占满整个窗口；再按 %1 恢复其他视图</translation>
    </message>
    <message>
        <source>%1 fills the window: %2 brings the other views back.</source>
        <translation>%1 已占满整个窗口：按 %2 恢复其他视图。</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Tuning</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>&amp;Tuned Configurations</source>
        <translation>调优配置(&amp;T)</translation>
    </message>
    <message>
        <source>Default Schedules (Untuned)</source>
        <translation>默认调度（未调优）</translation>
    </message>
    <message>
        <source>Every fused function keeps its default schedule</source>
        <translation>每个融合函数都保留其默认调度</translation>
    </message>
    <message>
        <source>Bundled for This Machine Kind</source>
        <translation>内置（适用于此类机器）</translation>
    </message>
    <message>
        <source>The zoo models&apos; configurations tuned on an x86-64 machine with AVX-512 (%1)</source>
        <translation>在支持 AVX-512 的 x86-64 机器上调优的模型库模型配置（%1）</translation>
    </message>
    <message>
        <source>Records: %1</source>
        <translation>记录：%1</translation>
    </message>
    <message>
        <source>Choose Records File…</source>
        <translation>选择记录文件…</translation>
    </message>
    <message>
        <source>Tuned configurations</source>
        <translation>调优配置</translation>
    </message>
    <message>
        <source>Tuning records (*.jsonl);;All files (*)</source>
        <translation>调优记录 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Default schedules: tuned configurations are off</source>
        <translation>默认调度：已关闭调优配置</translation>
    </message>
    <message>
        <source>Tuned configurations from %1</source>
        <translation>使用调优配置：%1</translation>
    </message>
    <message>
        <source>; %1 of %2 tunable functions tuned</source>
        <translation>；%2 个可调优函数中已调优 %1 个</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Primitive Steps</source>
        <translation>原语步骤</translation>
    </message>
    <message>
        <source>Save &amp;Project</source>
        <translation>保存项目(&amp;P)</translation>
    </message>
    <message>
        <source>Save Project As…</source>
        <translation>项目另存为…</translation>
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
        <translation>在 %2 上运行 %1 失败：%3</translation>
    </message>
    <message>
        <source>&amp;Save Script</source>
        <translation>保存脚本(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save Script &amp;As…</source>
        <translation>脚本另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Write the script to its file</source>
        <translation>将脚本写入其文件</translation>
    </message>
    <message>
        <source>Save the project: the model, its edited schedules, the tuning settings</source>
        <translation>保存项目：模型、编辑过的调度、调优设置</translation>
    </message>
    <message>
        <source>&amp;Revert Script to Saved</source>
        <translation>将脚本还原为已保存版本(&amp;R)</translation>
    </message>
    <message>
        <source>Save script</source>
        <translation>保存脚本</translation>
    </message>
    <message>
        <source>TE scripts (*.te)</source>
        <translation>TE 脚本 (*.te)</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Revert Script</source>
        <translation>还原脚本</translation>
    </message>
    <message>
        <source>Discard the changes to %1 and reload it from its file?</source>
        <translation>放弃对 %1 的更改并从文件重新载入？</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Reverted %1 to its file</source>
        <translation>已将 %1 还原为文件内容</translation>
    </message>
    <message>
        <source>Unsaved Changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save your changes before closing?</source>
        <translation>关闭前保存更改？</translation>
    </message>
    <message>
        <source>Not saved yet: %1.</source>
        <translation>尚未保存：%1。</translation>
    </message>
    <message>
        <source>Don&apos;t Save</source>
        <translation>不保存</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <source>Tessel did not close normally: unsaved work from %1 can be restored (%2).</source>
        <translation>Tessel 未正常关闭：可以恢复 %1 时未保存的工作（%2）。</translation>
    </message>
    <message numerus="yes">
        <source>%n more after this one.</source>
        <translation>
            <numerusform>此后还有 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Open it again as it was, unsaved</source>
        <translation>按原样重新打开（未保存）</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Delete the recovered copy</source>
        <translation>删除恢复的副本</translation>
    </message>
    <message>
        <source>Restored unsaved work from %1</source>
        <translation>已恢复 %1 时未保存的工作</translation>
    </message>
    <message>
        <source>Generate code for (host, an architecture, a triple with -mcpu/-mattr, llvm -mtriple=…, or cuda -mcpu=sm_90 for an NVIDIA GPU):</source>
        <translation>为以下目标生成代码（host、一种架构、带 -mcpu/-mattr 的三元组、llvm -mtriple=…，或用于 NVIDIA GPU 的 cuda -mcpu=sm_90）：</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Tessel %1&lt;/h3&gt;&lt;p&gt;An IDE for seeing and tuning deep-learning compilation: ONNX models become fused operators, tensor expressions with schedules, loop programs (TIR), LLVM IR and assembly (PTX and CUDA C for NVIDIA GPUs), all shown side by side.&lt;/p&gt;&lt;p&gt;Built with Qt %2, LLVM 16 and Graphviz.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Tessel %1&lt;/h3&gt;&lt;p&gt;一个用于观察和调优深度学习编译的 IDE：ONNX 模型依次变为融合算子、带调度的张量表达式、循环程序（TIR）、LLVM IR 和汇编（NVIDIA GPU 上为 PTX 和 CUDA C），并全部并排显示。&lt;/p&gt;&lt;p&gt;基于 Qt %2、LLVM 16 和 Graphviz 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>G&amp;PU GEMM Lesson (PTX)</source>
        <translation>GPU GEMM 课程 (PTX)(&amp;P)</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 cannot be compiled: %n unsupported construct(s), listed in the log; its graph is shown.</source>
        <translation>
            <numerusform>%1 无法编译：%n 个不支持的结构（已列在日志中）；仅显示其图。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::NodeProperties</name>
    <message>
        <source>Property</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation>未选择任何内容</translation>
    </message>
    <message>
        <source>Click a node in the graph to see its properties.</source>
        <translation>单击图中的节点以查看其属性。</translation>
    </message>
    <message>
        <source>Graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <source>Graph output</source>
        <translation>图输出</translation>
    </message>
    <message>
        <source>%1  %2</source>
        <translation>%1  %2</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Fused function</source>
        <translation>融合函数</translation>
    </message>
    <message>
        <source>Click to select this function in every view</source>
        <translation>单击以在所有视图中选中此函数</translation>
    </message>
    <message>
        <source>Group kind</source>
        <translation>分组类型</translation>
    </message>
    <message>
        <source>Master</source>
        <translation>主算子</translation>
    </message>
    <message>
        <source>Operators in function</source>
        <translation>函数中的算子数</translation>
    </message>
    <message>
        <source>none (not in the compiled model)</source>
        <translation>无（不在编译后的模型中）</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Attributes</source>
        <translation>算子属性</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>none (optional input left out)</source>
        <translation>无（省略了可选输入）</translation>
    </message>
    <message>
        <source>constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <source>graph input</source>
        <translation>图输入</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>%1  (%2)</source>
        <translation>%1  (%2)</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>  → %1</source>
        <translation>  → %1</translation>
    </message>
    <message>
        <source>Fused function  %1</source>
        <translation>融合函数  %1</translation>
    </message>
    <message numerus="yes">
        <source>%n operators computed in one kernel; the intermediate tensors are never stored.</source>
        <translation>
            <numerusform>%n 个算子在同一个内核中计算；中间张量从不存储。</numerusform>
        </translation>
    </message>
    <message>
        <source>GFLOP per call</source>
        <translation>每次调用的 GFLOP</translation>
    </message>
    <message>
        <source>Operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>edited in the schedule editor</source>
        <translation>已在调度编辑器中编辑</translation>
    </message>
    <message>
        <source>configuration opened from the Tuning view</source>
        <translation>从调优视图打开的配置</translation>
    </message>
    <message>
        <source>tuned (%1)</source>
        <translation>已调优（%1）</translation>
    </message>
    <message numerus="yes">
        <source>default (%n tunable knob(s))</source>
        <translation>
            <numerusform>默认（%n 个可调参数）</numerusform>
        </translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>%1 ms (%2 % of the model, on %3)</source>
        <translation>%1 ms（占模型的 %2%，测量于 %3）</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>%1 GFLOP/s</source>
        <translation>%1 GFLOP/s</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>域</translation>
    </message>
    <message>
        <source>Cannot compile</source>
        <translation>无法编译</translation>
    </message>
    <message>
        <source>none (the model cannot be compiled)</source>
        <translation>无（模型无法编译）</translation>
    </message>
    <message>
        <source>Subgraphs</source>
        <translation>子图</translation>
    </message>
    <message numerus="yes">
        <source>%n operator(s)</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>Subgraph  %1</source>
        <translation>子图  %1</translation>
    </message>
    <message>
        <source>Subgraph %1 of %2: compiled on its own and run by the control-flow executor.</source>
        <translation>%2 的子图 %1：单独编译，由控制流执行器运行。</translation>
    </message>
    <message>
        <source>Attribute</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>所属节点</translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation>框</translation>
    </message>
    <message>
        <source>Model  %1</source>
        <translation>模型  %1</translation>
    </message>
    <message>
        <source>The model as a whole. Click a node in the graph to see its properties.</source>
        <translation>整个模型。点击图中的节点可查看其属性。</translation>
    </message>
    <message>
        <source>The model as imported: it cannot be compiled. Click a node in the graph to see its properties.</source>
        <translation>导入时的模型：无法编译。点击图中的节点可查看其属性。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>%1 (%2 in subgraphs)</source>
        <translation>%1（子图中 %2 个）</translation>
    </message>
    <message>
        <source>Fused functions</source>
        <translation>融合函数</translation>
    </message>
    <message numerus="yes">
        <source>%n construct(s)</source>
        <translation>
            <numerusform>%n 个结构</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::PassReferenceDialog</name>
    <message>
        <source>Option</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>Pass reference</source>
        <translation>Pass 参考</translation>
    </message>
    <message>
        <source>Graph passes</source>
        <translation>图 Pass</translation>
    </message>
    <message>
        <source>Run on the whole model after import, in the order of the default pipeline; the graph view shows the graph after each.</source>
        <translation>导入后按默认流水线的顺序在整个模型上运行；图视图会显示每个 Pass 之后的图。</translation>
    </message>
    <message>
        <source>TIR passes</source>
        <translation>TIR Pass</translation>
    </message>
    <message>
        <source>Run on each fused function&apos;s loop program after lowering its schedule; the stage view shows the TIR after each.</source>
        <translation>在每个融合函数的调度降级后，在其循环程序上运行；阶段视图会显示每个 Pass 之后的 TIR。</translation>
    </message>
    <message>
        <source>LLVM optimisation</source>
        <translation>LLVM 优化</translation>
    </message>
    <message>
        <source>The lowered TIR becomes LLVM IR with a debug location per TIR line; LLVM&apos;s O3 pipeline optimises it for this CPU and the code generator writes assembly. The code view links all three.</source>
        <translation>降级后的 TIR 被转换为 LLVM IR，每个 TIR 行对应一个调试位置；LLVM 的 O3 流水线针对本机 CPU 对其进行优化，再由代码生成器输出汇编。代码视图将三者相互关联。</translation>
    </message>
</context>
<context>
    <name>tessel::views::PrimitiveStepper</name>
    <message>
        <source>The schedule&apos;s primitives in order: choose one to see the TIR after it</source>
        <translation>按顺序列出调度的原语：选择一个即可查看其后的 TIR</translation>
    </message>
    <message>
        <source>Open a TE script or select a fused function: its schedule is stepped through here.</source>
        <translation>打开 TE 脚本或选择一个融合函数：在此逐步查看其调度。</translation>
    </message>
    <message>
        <source>the default schedule</source>
        <translation>默认调度</translation>
    </message>
    <message>
        <source>Lowering the schedule step by step…</source>
        <translation>正在逐步降级调度…</translation>
    </message>
    <message>
        <source>Stepping through the schedule of %1</source>
        <translation>正在逐步查看 %1 的调度</translation>
    </message>
    <message>
        <source>Cannot step through the schedule: %1</source>
        <translation>无法逐步查看调度：%1</translation>
    </message>
    <message>
        <source>Step %1 of %2 does not lower: %3</source>
        <translation>第 %1 步（共 %2 步）无法降级：%3</translation>
    </message>
    <message>
        <source>Step 0 of %1: the default schedule (no primitive yet).</source>
        <translation>第 0 步（共 %1 步）：默认调度（尚无原语）。</translation>
    </message>
    <message numerus="yes">
        <source>Step %1 of %2: %3 — %n TIR line(s) new</source>
        <translation>
            <numerusform>第 %1 步（共 %2 步）：%3 — 新增 %n 行 TIR</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>tessel::views::Project</name>
    <message>
        <source>not a project file: %1 at offset %2</source>
        <translation>不是项目文件：%1（偏移量 %2）</translation>
    </message>
    <message>
        <source>not a Tessel project (no &quot;tessel-project&quot; version)</source>
        <translation>不是 Tessel 项目（缺少 &quot;tessel-project&quot; 版本）</translation>
    </message>
    <message>
        <source>project version %1 is not supported (this Tessel reads version %2)</source>
        <translation>不支持项目版本 %1（此版本的 Tessel 读取版本 %2）</translation>
    </message>
    <message>
        <source>a project opens a model or a script, not both</source>
        <translation>一个项目只能打开模型或脚本之一，不能同时打开两者</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
</context>
<context>
    <name>tessel::views::RecordTable</name>
    <message>
        <source>ok (default)</source>
        <translation>正常（默认）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>tessel::views::Recovery</name>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>not a recovery file of this Tessel</source>
        <translation>不是此 Tessel 的恢复文件</translation>
    </message>
</context>
<context>
    <name>tessel::views::RunHistory</name>
    <message>
        <source>run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 threads</source>
        <translation>%1 个线程</translation>
    </message>
    <message>
        <source>max abs error %1, max rel error %2</source>
        <translation>最大绝对误差 %1，最大相对误差 %2</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Latency (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>% of peak</source>
        <translation>占峰值 %</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>正确性</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
</context>
<context>
    <name>tessel::views::SassDisassembly</name>
    <message>
        <source>SASS needs the CUDA toolkit&apos;s %1, not found in %2. Install the CUDA toolkit (or set CUDA_HOME) to see the GPU&apos;s machine code; the PTX does not need it.</source>
        <translation>SASS 需要 CUDA 工具包的 %1，但在 %2 中未找到。请安装 CUDA 工具包（或设置 CUDA_HOME）以查看 GPU 的机器码；PTX 不需要它。</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleDocument</name>
    <message>
        <source>Nothing is open.</source>
        <translation>没有打开任何内容。</translation>
    </message>
    <message>
        <source>Open a TE script or select a fused function to edit its schedule.</source>
        <translation>打开 TE 脚本或选择一个融合函数以编辑其调度。</translation>
    </message>
    <message>
        <source>Select a fused function to edit its schedule.</source>
        <translation>选择一个融合函数以编辑其调度。</translation>
    </message>
    <message>
        <source>The model has no function &apos;%1&apos;.</source>
        <translation>模型中没有函数“%1”。</translation>
    </message>
    <message>
        <source># The schedule of this function was not printed: the model was compiled without its trace.
</source>
        <translation># 未打印此函数的调度：模型编译时未记录其跟踪信息。
</translation>
    </message>
    <message>
        <source>Lowering…</source>
        <translation>正在降级…</translation>
    </message>
    <message>
        <source>Lowering %1</source>
        <translation>正在降级 %1</translation>
    </message>
    <message>
        <source>Read-only: this schedule cannot be written as a TE script (see the comment).</source>
        <translation>只读：此调度无法写成 TE 脚本（参见注释）。</translation>
    </message>
    <message>
        <source>Lowered in %1 ms (TIR %2 ms, code %3 ms)</source>
        <translation>降级耗时 %1 ms（TIR %2 ms，代码 %3 ms）</translation>
    </message>
    <message>
        <source>Nothing to run: open a TE script or select a fused function.</source>
        <translation>没有可运行的内容：请打开 TE 脚本或选择一个融合函数。</translation>
    </message>
    <message>
        <source>Fix the script before running it.</source>
        <translation>请先修正脚本再运行。</translation>
    </message>
    <message>
        <source>Measuring %1…</source>
        <translation>正在测量 %1…</translation>
    </message>
    <message>
        <source>Measuring %1</source>
        <translation>正在测量 %1</translation>
    </message>
    <message>
        <source>Run cancelled.</source>
        <translation>运行已取消。</translation>
    </message>
    <message>
        <source>%1 computes something else than its default schedule: %2</source>
        <translation>%1 的计算结果与其默认调度不同：%2</translation>
    </message>
    <message>
        <source>Run and Measure now use %1.</source>
        <translation>运行和测量现在使用 %1。</translation>
    </message>
    <message>
        <source>The run on %1 failed: %2</source>
        <translation>在 %1 上的运行失败：%2</translation>
    </message>
    <message>
        <source>Measured on %3: %1 ms, %2 GFLOP/s</source>
        <translation>在 %3 上测得：%1 ms，%2 GFLOP/s</translation>
    </message>
    <message>
        <source>The run of %1 on %2 failed: %3</source>
        <translation>%1 在 %2 上的运行失败：%3</translation>
    </message>
    <message>
        <source>Assembly of %1</source>
        <translation>%1 的汇编</translation>
    </message>
    <message>
        <source>Lowered in %1 ms (TIR %2 ms, code %3 ms, of which assembly %4 ms)</source>
        <translation>降级用时 %1 ms（TIR %2 ms，代码 %3 ms，其中汇编 %4 ms）</translation>
    </message>
    <message>
        <source>No assembly: %1</source>
        <translation>没有汇编：%1</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleEditor</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo (Ctrl+Z)</source>
        <translation>撤销 (Ctrl+Z)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Redo (Ctrl+Shift+Z)</source>
        <translation>重做 (Ctrl+Shift+Z)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Measure this schedule and check it against the default schedule (Ctrl+R)</source>
        <translation>测量此调度，并与默认调度核对结果 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Extent</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>The loop nest of the schedule; right-click a loop to write a schedule line</source>
        <translation>调度的循环嵌套；右键单击循环可写入一行调度</translation>
    </message>
    <message>
        <source>Double-click a run to put its script back</source>
        <translation>双击某次运行可恢复其脚本</translation>
    </message>
    <message>
        <source>inline</source>
        <translation>内联</translation>
    </message>
    <message>
        <source>computed here</source>
        <translation>在此处计算</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>归约</translation>
    </message>
    <message>
        <source>TIR: %1
Script: %2</source>
        <translation>TIR：%1
脚本：%2</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>(无名称)</translation>
    </message>
    <message>
        <source>Split…</source>
        <translation>拆分(split)…</translation>
    </message>
    <message>
        <source>Tile with the next loop…</source>
        <translation>与下一个循环分块(tile)…</translation>
    </message>
    <message>
        <source>Reorder…</source>
        <translation>重排(reorder)…</translation>
    </message>
    <message>
        <source>Fuse with the next loop</source>
        <translation>与下一个循环融合(fuse)</translation>
    </message>
    <message>
        <source>Vectorize</source>
        <translation>向量化(vectorize)</translation>
    </message>
    <message>
        <source>Unroll</source>
        <translation>展开(unroll)</translation>
    </message>
    <message>
        <source>Parallel</source>
        <translation>并行(parallel)</translation>
    </message>
    <message>
        <source>Compute at…</source>
        <translation>在指定循环处计算(compute_at)…</translation>
    </message>
    <message>
        <source>Compute inline</source>
        <translation>内联计算(compute_inline)</translation>
    </message>
    <message>
        <source>Compute at root</source>
        <translation>在根处计算(compute_root)</translation>
    </message>
    <message>
        <source>Cache write</source>
        <translation>写缓存(cache_write)</translation>
    </message>
    <message>
        <source>This schedule cannot be edited.</source>
        <translation>此调度无法编辑。</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>拆分(split)</translation>
    </message>
    <message>
        <source>Extent of the inner loop of &apos;%1&apos;:</source>
        <translation>“%1”的内层循环范围：</translation>
    </message>
    <message>
        <source>Tile</source>
        <translation>分块(tile)</translation>
    </message>
    <message>
        <source>Tile size along &apos;%1&apos;:</source>
        <translation>沿“%1”的分块大小：</translation>
    </message>
    <message>
        <source>Reorder</source>
        <translation>重排(reorder)</translation>
    </message>
    <message>
        <source>The loops of &apos;%1&apos; in their new order:</source>
        <translation>“%1”的循环（新顺序）：</translation>
    </message>
    <message>
        <source>There is no other stage to compute &apos;%1&apos; at.</source>
        <translation>没有可在其中计算“%1”的其他阶段。</translation>
    </message>
    <message>
        <source>Compute at</source>
        <translation>在指定循环处计算(compute_at)</translation>
    </message>
    <message>
        <source>Compute &apos;%1&apos; inside the loop:</source>
        <translation>在以下循环内计算“%1”：</translation>
    </message>
    <message>
        <source>Cannot write that line: %1</source>
        <translation>无法写入该行：%1</translation>
    </message>
    <message>
        <source>, %1% of peak</source>
        <translation>，峰值的 %1%</translation>
    </message>
    <message>
        <source>correct (max abs error %1, max rel error %2)</source>
        <translation>正确（最大绝对误差 %1，最大相对误差 %2）</translation>
    </message>
    <message>
        <source>WRONG: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <source>%1 on %7: %2 ms, %3 GFLOP/s%4, %5 threads; %6</source>
        <translation>%1（%7）：%2 ms，%3 GFLOP/s%4，%5 个线程；%6</translation>
    </message>
    <message>
        <source>Loops</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Pictures</source>
        <translation>图示</translation>
    </message>
    <message>
        <source>The schedule drawn as TVM&apos;s TEDD draws it: dataflow, schedule tree, itervar relations</source>
        <translation>按 TVM 的 TEDD 方式绘制的调度：数据流、调度树、itervar 关系</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
</context>
<context>
    <name>tessel::views::ScheduleGraphView</name>
    <message>
        <source>The schedule&apos;s root: stages computed at root hang here</source>
        <translation>调度的根：在根处计算的阶段挂在这里</translation>
    </message>
    <message>
        <source>Input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <source>Loop %1 of stage %2%3</source>
        <translation>阶段 %2 的循环 %1%3</translation>
    </message>
    <message>
        <source> (leaf %1)</source>
        <translation> （叶 %1）</translation>
    </message>
    <message>
        <source>A split of stage %1</source>
        <translation>阶段 %1 的 split</translation>
    </message>
    <message>
        <source>A fuse of stage %1</source>
        <translation>阶段 %1 的 fuse</translation>
    </message>
    <message>
        <source>%1
Script lines: %2 (click to go to the first)</source>
        <translation>%1
脚本行：%2（点击跳到第一行）</translation>
    </message>
    <message>
        <source>Dataflow</source>
        <translation>数据流</translation>
    </message>
    <message>
        <source>Schedule Tree</source>
        <translation>调度树</translation>
    </message>
    <message>
        <source>Itervar Relations</source>
        <translation>Itervar 关系</translation>
    </message>
    <message>
        <source>TEDD&apos;s pictures of the schedule: the stages and the tensors they read; the loop nest with where each stage is computed; how splits and fuses made each stage&apos;s loops</source>
        <translation>TEDD 的调度图示：各阶段及其读取的张量；标出每个阶段计算位置的循环嵌套；split 和 fuse 如何生成每个阶段的循环</translation>
    </message>
    <message>
        <source>No schedule: open a TE script or choose a fused function.</source>
        <translation>没有调度：请打开 TE 脚本或选择一个融合函数。</translation>
    </message>
    <message>
        <source>Laying out the schedule picture</source>
        <translation>正在布局调度图示</translation>
    </message>
    <message>
        <source>Loops outermost first; a stage hangs under the loop it is computed at.</source>
        <translation>循环从最外层开始；阶段挂在它被计算的循环之下。</translation>
    </message>
    <message>
        <source>Bold: the loops each stage runs (its leaves).</source>
        <translation>粗体：每个阶段实际运行的循环（叶）。</translation>
    </message>
    <message>
        <source>Producer → consumer, labelled with the tensor read.</source>
        <translation>生产者 → 消费者，标注所读取的张量。</translation>
    </message>
    <message>
        <source>Cannot lay out the picture: %1</source>
        <translation>无法布局图示：%1</translation>
    </message>
</context>
<context>
    <name>tessel::views::Session</name>
    <message>
        <source>Unknown target &apos;%1&apos;: %2</source>
        <translation>未知的目标 &apos;%1&apos;：%2</translation>
    </message>
    <message>
        <source>the new script</source>
        <translation>新脚本</translation>
    </message>
    <message>
        <source>the script %1</source>
        <translation>脚本 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n edited schedule(s) of %1</source>
        <translation>
            <numerusform>%1 的 %n 个已编辑调度</numerusform>
        </translation>
    </message>
    <message>
        <source>the tuning settings</source>
        <translation>调优设置</translation>
    </message>
</context>
<context>
    <name>tessel::views::StageView</name>
    <message>
        <source>Pass</source>
        <translation>Pass</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <source>Hide passes that changed nothing</source>
        <translation>隐藏未做任何更改的 Pass</translation>
    </message>
    <message>
        <source>The script&apos;s passes appear once it is compiled.</source>
        <translation>脚本编译后将显示其 Pass。</translation>
    </message>
    <message>
        <source>Open a model to see its graph passes, or a .te script to see its TIR passes.</source>
        <translation>打开模型以查看其图 Pass，或打开 .te 脚本以查看其 TIR Pass。</translation>
    </message>
    <message>
        <source>Select a fused function in the graph to see its TIR passes.</source>
        <translation>在图中选择一个融合函数以查看其 TIR Pass。</translation>
    </message>
    <message>
        <source>Select a pass to see the IR before and after it.</source>
        <translation>选择一个 Pass 以查看其前后的 IR。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>This pass changed the IR</source>
        <translation>此 Pass 更改了 IR</translation>
    </message>
    <message>
        <source>This pass changed nothing</source>
        <translation>此 Pass 未做任何更改</translation>
    </message>
    <message>
        <source>Graph passes</source>
        <translation>图 Pass</translation>
    </message>
    <message>
        <source>The graph as imported, before any pass.</source>
        <translation>导入时的图，尚未经过任何 Pass。</translation>
    </message>
    <message>
        <source>Before: the IR after %1</source>
        <translation>之前：%1 之后的 IR</translation>
    </message>
    <message>
        <source>Lowering</source>
        <translation>降级（Lowering）</translation>
    </message>
    <message>
        <source>Before: the fused graph (the last graph pass)</source>
        <translation>之前：融合后的图（最后一个图 Pass）</translation>
    </message>
    <message>
        <source>TIR passes: %1</source>
        <translation>TIR Pass：%1</translation>
    </message>
    <message>
        <source>The TIR straight from the schedule, before any pass.</source>
        <translation>直接由调度生成、尚未经过任何 Pass 的 TIR。</translation>
    </message>
    <message>
        <source>Lowering the schedule gives loop nests over N-d buffers, with the schedule&apos;s annotations on the loops; the passes below turn it into what code generation compiles.</source>
        <translation>降级调度会得到作用于 N 维缓冲区的循环嵌套，循环上带有调度的注解；下面的 Pass 将其转换为代码生成所编译的形式。</translation>
    </message>
    <message>
        <source>Before: the TIR straight from the schedule</source>
        <translation>之前：直接由调度生成的 TIR</translation>
    </message>
    <message>
        <source>LLVM optimisation</source>
        <translation>LLVM 优化</translation>
    </message>
    <message>
        <source>Before: the LLVM IR as generated</source>
        <translation>之前：刚生成的 LLVM IR</translation>
    </message>
    <message>
        <source>LLVM&apos;s optimisation pipeline on the IR generated from the TIR.</source>
        <translation>在由 TIR 生成的 IR 上运行的 LLVM 优化流水线。</translation>
    </message>
    <message>
        <source>Instruction combining, loop unrolling and vectorisation, inlining and the rest of LLVM&apos;s pipeline at the chosen level. Debug locations survive it, so the code view still links each line to the TIR.</source>
        <translation>所选级别下的指令合并、循环展开与向量化、内联以及 LLVM 流水线的其余部分。调试位置信息会被保留，因此代码视图仍能将每一行关联到 TIR。</translation>
    </message>
    <message>
        <source>changed the IR</source>
        <translation>更改了 IR</translation>
    </message>
    <message>
        <source>changed nothing</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>Comparing the IR before and after %1</source>
        <translation>正在比较 %1 前后的 IR</translation>
    </message>
    <message>
        <source>Could not compare the IR: %1</source>
        <translation>无法比较 IR：%1</translation>
    </message>
    <message>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <source>%1 removed, %2 added</source>
        <translation>删除 %1，添加 %2</translation>
    </message>
    <message>
        <source>Before: nothing, this is the first stage</source>
        <translation>之前：无，这是第一个阶段</translation>
    </message>
    <message>
        <source>After: %1</source>
        <translation>之后：%1</translation>
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
        <translation>本机</translation>
    </message>
    <message>
        <source>Generate code for this machine, the Devices panel&apos;s device, or an NVIDIA GPU (PTX)</source>
        <translation>为本机、设备面板中的设备或 NVIDIA GPU（PTX）生成代码</translation>
    </message>
</context>
<context>
    <name>tessel::views::TaskTable</name>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1/%2 (%3 failed)</source>
        <translation>%1/%2（失败 %3 次）</translation>
    </message>
    <message>
        <source>Functions: %1</source>
        <translation>函数：%1</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Best GFLOP/s</source>
        <translation>最佳 GFLOP/s</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>tessel::views::TuningSession</name>
    <message>
        <source>The model has no function with a tunable schedule.</source>
        <translation>模型中没有可调优调度的函数。</translation>
    </message>
    <message>
        <source>The script defines no knobs (cfg.define_split, define_knob …): nothing to tune.</source>
        <translation>脚本没有定义任何可调参数（cfg.define_split、define_knob …）：没有可调优的内容。</translation>
    </message>
    <message>
        <source>Open a model or a TE script template to tune it.</source>
        <translation>请打开模型或 TE 脚本模板以进行调优。</translation>
    </message>
    <message>
        <source>Cannot make tuning tasks: %1</source>
        <translation>无法创建调优任务：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n task(s); records: %1</source>
        <translation>
            <numerusform>%n 个任务；记录：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Nothing to tune.</source>
        <translation>没有可调优的内容。</translation>
    </message>
    <message>
        <source>The trial budget must be at least 1.</source>
        <translation>试验次数至少为 1。</translation>
    </message>
    <message>
        <source>Unknown tuner &apos;%1&apos;.</source>
        <translation>未知的调优器“%1”。</translation>
    </message>
    <message>
        <source>Stopping after the trial in flight…</source>
        <translation>将在当前试验完成后停止…</translation>
    </message>
    <message>
        <source>Tuning failed: %1</source>
        <translation>调优失败：%1</translation>
    </message>
    <message>
        <source>Tuning %1 failed: %2</source>
        <translation>调优 %1 失败：%2</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n trial(s); records: %1</source>
        <translation>
            <numerusform>已在 %n 次试验后停止；记录：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Finished: %n trial(s) measured; records: %1</source>
        <translation>
            <numerusform>已完成：测量了 %n 次试验；记录：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2/%3 trials, best %4 GFLOP/s</source>
        <translation>%1：试验 %2/%3，最佳 %4 GFLOP/s</translation>
    </message>
    <message>
        <source>, %1× over the default</source>
        <translation>，为默认调度的 %1×</translation>
    </message>
    <message>
        <source>Starting the device and the first task…</source>
        <translation>正在启动设备和第一个任务…</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>ETA ?</source>
        <translation>预计剩余时间未知</translation>
    </message>
    <message>
        <source>Paused — %1</source>
        <translation>已暂停 — %1</translation>
    </message>
</context>
<context>
    <name>tessel::views::TuningView</name>
    <message>
        <source>trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>measured GFLOP/s</source>
        <translation>实测 GFLOP/s</translation>
    </message>
    <message>
        <source>predicted score</source>
        <translation>预测得分</translation>
    </message>
    <message>
        <source>planned trial</source>
        <translation>计划的试验</translation>
    </message>
    <message>
        <source>Records:</source>
        <translation>记录：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Double-click a record to open its configuration</source>
        <translation>双击记录以打开其配置</translation>
    </message>
    <message>
        <source>Tuner:</source>
        <translation>调优器：</translation>
    </message>
    <message>
        <source>Trials:</source>
        <translation>试验次数：</translation>
    </message>
    <message>
        <source>Early stop:</source>
        <translation>提前停止：</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>End a task after this many trials without a faster one</source>
        <translation>连续这么多次试验都没有更快的配置时，结束该任务</translation>
    </message>
    <message>
        <source>Workload:</source>
        <translation>工作负载：</translation>
    </message>
    <message>
        <source>The template&apos;s workload parameters, NAME=VALUE,…</source>
        <translation>模板的工作负载参数，格式为 NAME=VALUE,…</translation>
    </message>
    <message>
        <source>table order</source>
        <translation>按表格顺序</translation>
    </message>
    <message>
        <source>heaviest first</source>
        <translation>最重的任务优先</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>%1 of %2 trials</source>
        <translation>%1 / %2 次试验</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Cost model</source>
        <translation>代价模型</translation>
    </message>
    <message numerus="yes">
        <source>Predicted vs measured: Spearman ρ = %1 (%n trial(s))</source>
        <translation>
            <numerusform>预测与实测：Spearman ρ = %1（%n 次试验）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Predicted vs measured (%n planned trial(s))</source>
        <translation>
            <numerusform>预测与实测（%n 次计划的试验）</numerusform>
        </translation>
    </message>
    <message>
        <source># %1, trial %2 of the tuning records: --config %3
# %4
</source>
        <translation># %1，调优记录中的第 %2 次试验：--config %3
# %4
</translation>
    </message>
    <message>
        <source>Opening trial %1 (%2)…</source>
        <translation>正在打开第 %1 次试验（%2）…</translation>
    </message>
    <message>
        <source>Opening a tuned configuration</source>
        <translation>正在打开调优配置</translation>
    </message>
    <message>
        <source>Trial %1 (%2) is open in the schedule editor as %3</source>
        <translation>第 %1 次试验（%2）已在调度编辑器中作为 %3 打开</translation>
    </message>
    <message>
        <source>Cannot open the configuration: %1</source>
        <translation>无法打开该配置：%1</translation>
    </message>
    <message>
        <source>the template&apos;s</source>
        <translation>模板的默认值</translation>
    </message>
    <message>
        <source>the template&apos;s: %1</source>
        <translation>模板的默认值：%1</translation>
    </message>
    <message>
        <source>%1, trial %2: %3</source>
        <translation>%1，第 %2 次试验：%3</translation>
    </message>
</context>
</TS>
