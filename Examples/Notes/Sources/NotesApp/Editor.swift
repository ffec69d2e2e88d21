import WeftContexts
import WeftCore

/// What the note editor holds: the title being typed, the note's body as last autosaved, the
/// note it edits (`nil`: a new note), and the message of the last refused title.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to copy (plus the strings).
public struct EditorState: Sendable, Equatable {
  /// The title as typed (only valid titles are ever written here).
  public var title = ""
  /// The body as the debounced binding last wrote it (typing pauses for `bodyDebounce`).
  public var body = ""
  /// The id of the note being edited; `nil` when the editor makes a new note.
  public var noteID: Int?
  /// Why the last title typed was refused; `nil` after a valid one.
  public var error: String?
}

/// The editor's client: owns `EditorState`.
///
/// - Note: Isolation: an actor; `cell` is readable from any isolation.
/// - Complexity: each update one commit.
public actor EditorClient: Client {
  /// The state.
  public nonisolated let cell = StateCell(EditorState(), name: "EditorClient")

  /// Makes an empty editor.
  ///
  /// - Complexity: O(1).
  public init() {}
}

/// The editor's context in the app's context tree (`global/Notes/Editor`): reads the
/// editor's state through its mirror, exposes the title as a validated binding that refuses
/// an empty (or blank) title and keeps the refusal in `EditorState.error`, and the body as a
/// debounced binding that writes once typing pauses for `bodyDebounce` on the app's clock.
///
/// ```swift
/// await editor.type("")        // refused: editor.error is set, the title is unchanged
/// await editor.type("Milk")    // written: editor.error is nil again
/// editor.body.set("2 litres")  // written 500 ms after the last keystroke
/// ```
///
/// - Note: Isolation: MainActor; writes run on the editor client.
/// - Complexity: each write one commit (plus one for the error when it changes).
@MainActor
public final class EditorContext: ClientContext<EditorClient> {
  /// The title binding: writes only non-blank titles.
  public private(set) lazy var title = bind(\.title, validate: EditorContext.validateTitle)
  /// The body binding: each `set` restarts the window; the last value is written once
  /// `bodyDebounce` passes with no other (`get()` shows it at once).
  public private(set) lazy var body = bind(
    \.body, debouncedFor: EditorContext.bodyDebounce, clock: bodyClock)
  private let bodyClock: any Clock<Duration>
  /// How long the body waits for the next keystroke before it is written.
  public nonisolated static let bodyDebounce: Duration = .milliseconds(500)

  /// Makes the editor's context below `parent`; the body's debounce sleeps on `clock`.
  ///
  /// - Complexity: O(1).
  public init(client: EditorClient, in parent: Context, clock: any Clock<Duration>) {
    bodyClock = clock
    super.init(client: client, named: "Editor", in: parent)
    dependsOn(\.title)
    dependsOn(\.body)
    dependsOn(\.error)
  }

  /// `nil` for a valid title, else why it is refused.
  ///
  /// - Complexity: O(t), t = the title's length.
  public nonisolated static func validateTitle(_ title: String) -> String? {
    title.allSatisfy(\.isWhitespace) ? "a note needs a title" : nil
  }

  /// Types `text` into the title field: written when valid; the refusal (or its absence)
  /// lands in `EditorState.error`. Returns once both writes reached the client.
  ///
  /// - Returns: whether the title was written.
  /// - Complexity: one or two commits.
  @discardableResult
  public func type(_ text: String) async -> Bool {
    let written = title.set(text)
    let message = title.failure?.description
    if state.error != message { send { $0.error = message } }
    await waitForWrites()
    return written
  }

  /// Starts editing `note` (`nil`: a new note).
  ///
  /// - Complexity: one commit.
  public func open(_ note: Note?) async {
    await update { state in
      state = EditorState(title: note?.title ?? "", noteID: note?.id, error: nil)
    }
  }
}
