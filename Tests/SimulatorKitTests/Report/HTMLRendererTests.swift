import Testing

@testable import SimulatorKit

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
    #expect(count("<svg ", in: html) == 3)  // latency, sweep cost, sweep memory
  }

  @Test func chartsTheLatencyOfEveryStepThatMeasuredOne() {
    let html = HTMLRenderer().render(ReportFixtures.fanOutReport())
    #expect(count("<svg ", in: html) == 1)
    #expect(html.contains("#2 line 3: counter.set id=7 value=1"))
    for name in ["p50", "p95", "p99", "max"] {
      #expect(html.contains("<rect class=\"\(name)\""))
      #expect(html.contains("<title>\(name) 18.2 µs</title>"))
    }
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
    #expect(!html.contains("<svg"))
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
