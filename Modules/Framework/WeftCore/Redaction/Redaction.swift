/// What Weft writes in place of a secret value — a password, a bearer token, a cookie —
/// wherever it describes one: HTTP headers declared secret (`HTTPHeaders`), observable paths
/// declared secret (`ObservablePath.secret()`) in the simulator's traces and failure
/// messages. (Flow source text masks a secret argument with `*`, one per character, so
/// its columns stay true: `CommandArgument.secret()`.)
///
/// - Note: Isolation: constants; any isolation.
public enum Redaction {
  /// `[redacted]`.
  public static let placeholder = "[redacted]"
}
