import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("HTMLRenderer")
struct HTMLRendererTests {
  private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test func isSelfContained() {
    for report in [ReportFixtures.fanOutReport(), ReportFixtures.sweepReport()] {
      let html = HTMLRenderer().render(report)
      #expect(!html.contains("http://"))
      #expect(!html.contains("https://"))
      #expect(!html.contains("src="))
      #expect(!html.contains("href="))
      #expect(!html.contains("<script"))
      #expect(!html.contains("@import"))
      #expect(!html.contains("url("))
      #expect(
        html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
      #expect(html.hasSuffix("</body>\n</html>\n"))
    }
  }

  @Test func tagsAreBalanced() {
    let html = HTMLRenderer().render(ReportFixtures.sweepReport())
    for tag in ["svg", "table", "tr", "td", "th", "text", "title", "h2", "p", "style", "body"] {
      #expect(
        count("<\(tag)>", in: html) + count("<\(tag) ", in: html) == count("</\(tag)>", in: html),
        "\(tag)")
    }
    // time split and latency, and the sweep's three: cost per delivery, idle cost per commit,
    // memory per view
    #expect(count("<svg ", in: html) == 5)
  }

  /// A repeated statement is one row with its count, the distribution of its times and its
  /// summed counts; its steps are in an expandable row; failures come before the steps.
  @Test func aRepeatedStatementFoldsIntoOneExpandableRow() {
    var report = ReportFixtures.fanOutReport()
    let repeated = (0..<50).map { offset in
      StepReport(
        index: 4 + offset, line: 7, source: "counter.set id=$i value=1", status: .passed,
        metrics: ReportFixtures.metrics(wall: UInt64(1_000 * (offset + 1)), commits: 2))
    }
    report.steps += repeated
    let html = HTMLRenderer().render(report)
    #expect(html.contains("<td>4–53</td>"))
    #expect(html.contains("counter.set id=$i value=1 ×50"))
    #expect(html.contains("<td>ok ×50</td>"))
    #expect(html.contains("<td>p50 26.0 µs<br><small>p95 48.0 µs<br>max 50.0 µs</small></td>"))
    #expect(html.contains("<td>Σ 100</td>"))
    #expect(html.contains("<summary>the 50 steps</summary>"))
    #expect(count("counter.set id=$i value=1</td>", in: html) == 50)  // the single rows
    let failures = html.range(of: "<h2>Failures</h2>")
    let steps = html.range(of: "<h2>Steps</h2>")
    #expect(failures != nil && steps != nil && failures!.lowerBound < steps!.lowerBound)
  }

  /// Each statement's wall time split into fan-out, database and the rest, longest first.
  @Test func splitsEachStatementsTimeIntoFanOutDatabaseAndTheRest() throws {
    var step = ReportFixtures.fanOutReport().steps[1]
    step.metrics.wallNanoseconds = 10_000_000
    step.metrics.mainActorDeliveryNanoseconds = 2_000_000
    step.metrics.databaseNanoseconds = 5_000_000
    let rows = TimeSplitChart(steps: [step]).rows
    let row = try #require(rows.first)
    #expect(row.fanOut == 2_000_000 && row.database == 5_000_000 && row.rest == 3_000_000)
    var report = ReportFixtures.fanOutReport()
    report.steps[1] = step
    let html = HTMLRenderer().render(report)
    #expect(html.contains("<h2>Where the time went: fan-out, database and the rest</h2>"))
    #expect(html.contains("<title>database 5.00 ms</title>"))
    #expect(html.contains("<title>rest 3.00 ms</title>"))
    // The longest statement first: the 412 ms `views` step, then this one.
    let order = TimeSplitChart(steps: report.steps).rows.map(\.wall)
    #expect(order == order.sorted(by: >))
  }

  @Test func chartsTheLatencyOfEveryStepThatMeasuredOne() {
    let html = HTMLRenderer().render(ReportFixtures.fanOutReport())
    #expect(count("<svg ", in: html) == 2)  // the time split, the latency
    #expect(html.contains("#2 line 3: counter.set id=7 value=1 (1 sample)"))
    // One sample supports its maximum, and no percentile: a p99 of one sample is that sample.
    #expect(html.contains("<title>max 18.2 µs</title>"))
    for name in ["p50", "p95", "p99"] {
      #expect(!html.contains("<title>\(name) "), "\(name)")
    }
    #expect(html.contains("max 18.2 µs (1)"))
    #expect(html.contains(">10 µs</text>"))
    #expect(html.contains(">100 µs</text>"))
  }

  @Test func drawsTheSweepOnLogLogAxesWithDecadeTicks() {
    let html = HTMLRenderer().render(ReportFixtures.sweepReport())
    for label in ["1", "10", "100", "1k", "10k", "100k", "1M"] {
      #expect(html.contains("text-anchor=\"middle\">\(label)</text>"), "\(label)")
    }
    #expect(html.contains(">100 ns</text>"))
    #expect(html.contains(">1 µs</text>"))
    #expect(html.contains("attached views (N, log scale)"))
    #expect(html.contains("<polyline class=\"line s1\""))
    // Idle cost is 0 below 1k views: those points cannot sit on a log axis and are left out.
    #expect(count("<circle class=\"s2\"", in: html) == 4)
    #expect(count("<circle class=\"s1\"", in: html) == 7)
  }

  @Test func escapesEveryTextFromTheReport() {
    var report = ReportFixtures.fanOutReport()
    report.flow = "<script>alert('x')</script> & \"quotes\""
    report.steps[1].source = "set name=<b>"
    report.steps[1].explain[0].selector = "\\A<B>"
    let html = HTMLRenderer().render(report)
    #expect(!html.contains("<script>"))
    #expect(!html.contains("<b>"))
    #expect(
      html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
    #expect(html.contains("set name=&lt;b&gt;"))
    #expect(html.contains("\\A&lt;B&gt;"))
  }

  @Test func listsFailuresWithExpectedAndActual() {
    let html = HTMLRenderer().render(ReportFixtures.fanOutReport())
    #expect(html.contains("<p class=\"result fail\">FAILED (1 failure)</p>"))
    #expect(
      html.contains(
        "<li><code>Flows/fanout-100k.flow:4:1</code> expectation: expected counter.total == 2, "
          + "found 1<br>expected <code>counter.total == 2</code>, actual <code>1</code></li>"))
  }

  @Test func saysSoWhenNoCommitReachedAView() {
    var report = ReportFixtures.fanOutReport()
    report.steps[1].metrics.latency = .empty
    let html = HTMLRenderer().render(report)
    #expect(!html.contains("aria-label=\"latency per step\""))
    #expect(html.contains("No commit reached a view."))
  }

  @Test func logAxisSpansWholeDecades() throws {
    let axis = try #require(LogAxis(values: [0, 18_200, 2_400_000], start: 0, end: 300))
    #expect(axis.low == 4)
    #expect(axis.high == 7)
    #expect(axis.ticks == [1e4, 1e5, 1e6, 1e7])
    #expect(axis.position(1e5) == 100)
    #expect(axis.position(0) == 0)
    #expect(LogAxis(values: [0, -1], start: 0, end: 1) == nil)
    let single = try #require(LogAxis(values: [1_000], start: 0, end: 1))
    #expect((single.low, single.high) == (3, 4))
    #expect(compactCount(1_000_000) == "1M")
    #expect(compactCount(2_500) == "2.5k")
    #expect(trimmingZeros("10.0 µs") == "10 µs")
  }
}
