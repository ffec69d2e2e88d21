import WeftContexts
import WeftFeedback
import WeftObservation

/// CLARITY's login screen state: one value, reduced by a MainActor `FeedbackStore`.
struct AuthForm: Sendable, Equatable {
  struct Credentials: Sendable, Equatable {
    var email: String
    var password: String
  }

  var email = ""
  var password = ""
  var submitted: Credentials?  // non-nil while a login runs
  var token: String?
  var errorMessage: String?

  var isLoading: Bool { submitted != nil }
  var isLoginButtonEnabled: Bool { !email.isEmpty && !password.isEmpty && !isLoading }

  enum Event: Sendable {
    case emailChanged(String)
    case passwordChanged(String)
    case loginTapped, logoutTapped
    case loggedIn(token: String)
    case failed(String)
  }

  static func reduce(_ state: inout AuthForm, _ event: Event) {
    switch event {
    case .emailChanged(let email): state.email = email
    case .passwordChanged(let password): state.password = password
    case .loginTapped:
      guard state.isLoginButtonEnabled else { return }
      state.errorMessage = nil
      state.submitted = Credentials(email: state.email, password: state.password)
    case .loggedIn(let token):
      state.token = token
      state.submitted = nil
      state.password = ""  // clear sensitive data
    case .failed(let message):
      state.errorMessage = message
      state.submitted = nil
      state.password = ""
    case .logoutTapped: state = AuthForm()
    }
  }
}

/// The view model: the store owns the state; the view reads it per property through
/// `ObservedState` and writes by dispatching.
@MainActor final class AuthViewModel {
  let store: FeedbackStore<AuthForm, AuthForm.Event, AuthForm.Event, Never>
  let form: ObservedState<AuthForm>

  /// `login` is the repository call: it returns a token or throws a message.
  init(login: @escaping @Sendable (AuthForm.Credentials) async throws -> String) {
    store = FeedbackStore(
      initial: AuthForm(), reduce: AuthForm.reduce, actions: { $0 },
      feedbacks: [
        .lensingSkippingRepeated(state: \.submitted) { credentials in
          do { return .loggedIn(token: try await login(credentials)) } catch is CancellationError {
            return nil
          } catch { return .failed("\(error)") }
        }
      ],
      routes: { _, _ in nil })
    form = ObservedState(store)
  }

  var email: ContextBinding<String> {
    form.binding(\.email) { [store] in store.dispatch(.emailChanged($0)) }
  }
  var password: ContextBinding<String> {
    form.binding(\.password) { [store] in store.dispatch(.passwordChanged($0)) }
  }
  /// A computed property tracked by its own value: typing invalidates the button only when
  /// it flips between enabled and disabled.
  var isLoginButtonEnabled: Bool { form.value(id: "auth.enabled") { $0.isLoginButtonEnabled } }
  var isLoading: Bool { form.value(id: "auth.loading") { $0.isLoading } }
  var errorMessage: String? { form.errorMessage }
  var isAuthenticated: Bool { form.value(id: "auth.token") { $0.token != nil } }

  func login() { store.dispatch(.loginTapped) }
  func logout() { store.dispatch(.logoutTapped) }
}
