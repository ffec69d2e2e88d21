import Foundation

/// What a step does: one case per flow statement, with typed, validated arguments.
///
/// Durations are `Duration`, dates are resolved against `Flow.ParseOptions.now`, metrics and
/// other fixed word sets are enums, counts are `Int` and weights `Double`. Values that the
/// app itself validates (an email, the text typed into the health form's value field) stay
/// text, so a flow can exercise the app's own error messages.
///
/// - Note: Isolation: a `Sendable` value.
public enum StepKind: Sendable, Equatable, Codable {
  // MARK: Views

  /// `views N observe PATH [as NAME]`: attach `count` headless views that each observe
  /// `path`, as the group `name` (the path when no name is given).
  case attachViews(count: Int, path: String, name: String)
  /// `views detach NAME [N]`: detach `count` views of group `name`, or all of them (`nil`).
  case detachViews(name: String, count: Int?)
  /// `views detach all`: detach every view.
  case detachAllViews

  // MARK: Auth

  /// `login email=S password=S`: fill both fields and submit.
  case login(email: String, password: String)
  /// `login.set [email=S] [password=S]`: type into the login fields without submitting.
  case setLoginFields(email: String?, password: String?)
  /// `login.submit`: press the login button.
  case submitLogin
  /// `login.dismiss-error`: dismiss the login error message.
  case dismissLoginError
  /// `logout`: log out, clearing every client's sensitive state.
  case logout
  /// `auth.retry`: retry the last failed authentication.
  case retryAuth
  /// `session.expire`: make the current session's token expire.
  case expireSession
  /// `app.relaunch`: tear the app down and build it again from its persisted state.
  case relaunchApp
  /// `verify-email`: complete the unverified-email sheet.
  case verifyEmail

  // MARK: Dashboard

  /// `open dashboard [range=...] [from=DATE] [to=DATE]`: show the dashboard, optionally with
  /// a range (`nil` keeps the dashboard's current or default range).
  case openDashboard(range: DashboardRange?)
  /// `dashboard.range day|week|month|custom [from=DATE to=DATE]`: change the date range.
  case setDashboardRange(DashboardRange)
  /// `dashboard.refresh`: re-run the dashboard's load.
  case refreshDashboard

  // MARK: Health form

  /// `form.set [metric=] [value=] [date=] [notes=]`: edit the health-data form's fields;
  /// `nil` fields are left as they are.
  case setHealthForm(HealthFormFields)
  /// `form.submit`: submit the health-data form.
  case submitHealthForm
  /// `form.reset`: reset the health-data form.
  case resetHealthForm

  // MARK: Grade weights

  /// `grades.set GROUP.FIELD=NUMBER ...`: edit the grade-weights form, in the given order.
  case setGradeWeights([GradeWeight])
  /// `grades.basis percent|points`: change the class's grade basis.
  case setGradeBasis(GradeBasis)

  // MARK: Context tree

  /// `context.request NAME [at=PATH]`: request a value by name from a context (the
  /// grade-weights form's class context when `at` is `nil`).
  case contextRequest(name: String, at: String?)
  /// `context.flag set|unset NAME [at=PATH]`: set or unset a flag on a context.
  case contextFlag(FlagChange, name: String, at: String?)
  /// `context.execute NAME [at=PATH]`: run an executable by name.
  case contextExecute(name: String, at: String?)
  /// `context.post NAME [at=PATH]`: post a notification by name to a context's observers.
  case contextPost(name: String, at: String?)

  // MARK: App state

  /// `tab NAME`: select a tab.
  case selectTab(String)
  /// `navigate push NAME`: push a destination onto the navigation path.
  case navigatePush(String)
  /// `navigate pop`: pop the navigation path.
  case navigatePop
  /// `sheet present NAME`: present a sheet.
  case presentSheet(String)
  /// `sheet dismiss`: dismiss the presented sheet.
  case dismissSheet
  /// `alert dismiss`: dismiss the presented alert.
  case dismissAlert
  /// `feature NAME on|off`: turn a feature flag on or off.
  case setFeature(String, enabled: Bool)

  // MARK: Network, realtime and clock

  /// `network offline`: make the network capability unavailable.
  case networkOffline
  /// `network online`: make the network capability available.
  case networkOnline
  /// `network latency DURATION [jitter=DURATION]`: virtual latency of every request;
  /// `jitter` (zero when not given) is drawn from the flow's seed.
  case networkLatency(Duration, jitter: Duration)
  /// `network fault KIND [...]`: inject a fault into matching requests.
  case networkFault(NetworkFault)
  /// `network faults clear`: remove every injected fault.
  case clearNetworkFaults
  /// `realtime connect|disconnect|drop`: control the realtime connection.
  case realtime(RealtimeAction)
  /// `realtime push insight title=S [body=S]`: the backend pushes a new insight.
  case pushInsight(title: String, body: String?)
  /// `clock advance DURATION`: advance the virtual clock, running what falls due.
  case advanceClock(Duration)
  /// `wait sync.idle [timeout=DURATION]`: run until the sync engine is idle.
  case waitSyncIdle(timeout: Duration?)
  /// `wait PATH OP VALUE [timeout=DURATION]`: run until the condition holds.
  case wait(Condition, timeout: Duration?)

  // MARK: Checks and output

  /// `expect PATH OP VALUE`: fail the step unless the condition holds now.
  case expect(Condition)
  /// `log "text"`: print a line in the trace.
  case log(String)
}
