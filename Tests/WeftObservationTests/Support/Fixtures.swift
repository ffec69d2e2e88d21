import WeftCore

struct Address: Sendable, Equatable {
  var city = "Lisbon"
  var zip = "1000"
}

struct Profile: Sendable, Equatable {
  var name = "Ada"
  var age = 36
  var email = "ada@example.com"
  var address = Address()
  var query = ""
}

actor ProfileClient: Client {
  nonisolated let cell = StateCell(Profile(), name: "ObservationProfile")

  /// `count` commits in a row on the client's actor, the last one naming `last`.
  func renameRepeatedly(_ count: Int, last: String) {
    for index in 1..<count { cell.update { $0.name = "name \(index)" } }
    cell.update { $0.name = last }
  }
}

/// A login form's state, reduced by a MainActor `Store` or a `FeedbackService`.
struct Login: Sendable, Equatable {
  var email = ""
  var attempts = 0

  enum Event: Sendable {
    case emailChanged(String)
    case submitted
  }

  static func reduce(_ state: inout Login, _ event: Event) {
    switch event {
    case .emailChanged(let email): state.email = email
    case .submitted: state.attempts += 1
    }
  }
}
