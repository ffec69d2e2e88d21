extension StepKind {
  /// The name of the command that writes this step (`form.submit`, `network fault`), as in
  /// `FlowCommand.name`: a short label for report rows.
  ///
  /// - Complexity: O(1).
  public var command: String {
    switch self {
    case .attachViews: "views"
    case .detachViews: "views detach"
    case .detachAllViews: "views detach all"
    case .login: "login"
    case .setLoginFields: "login.set"
    case .submitLogin: "login.submit"
    case .dismissLoginError: "login.dismiss-error"
    case .logout: "logout"
    case .retryAuth: "auth.retry"
    case .expireSession: "session.expire"
    case .relaunchApp: "app.relaunch"
    case .verifyEmail: "verify-email"
    case .openDashboard: "open dashboard"
    case .setDashboardRange: "dashboard.range"
    case .refreshDashboard: "dashboard.refresh"
    case .setHealthForm: "form.set"
    case .submitHealthForm: "form.submit"
    case .resetHealthForm: "form.reset"
    case .setGradeWeights: "grades.set"
    case .setGradeBasis: "grades.basis"
    case .contextRequest: "context.request"
    case .contextFlag: "context.flag"
    case .contextExecute: "context.execute"
    case .contextPost: "context.post"
    case .selectTab: "tab"
    case .navigatePush: "navigate push"
    case .navigatePop: "navigate pop"
    case .presentSheet: "sheet present"
    case .dismissSheet: "sheet dismiss"
    case .dismissAlert: "alert dismiss"
    case .setFeature: "feature"
    case .networkOffline: "network offline"
    case .networkOnline: "network online"
    case .networkLatency: "network latency"
    case .networkFault: "network fault"
    case .clearNetworkFaults: "network faults clear"
    case .realtime: "realtime"
    case .pushInsight: "realtime push"
    case .advanceClock: "clock advance"
    case .waitSyncIdle: "wait sync.idle"
    case .wait: "wait"
    case .expect: "expect"
    case .log: "log"
    }
  }
}
