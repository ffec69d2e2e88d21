/// The pinned text of every `ContextError`, for the tests of the throwing twins and of the
/// traps (a trap prints the same text).
enum Messages {
  static let notFound =
    "no requestable 'missing' is visible from context 'global/Traps/Form': none was added "
    + "there or on a supercontext, and none below. Add it with addRequestable(_:requesting:) "
    + "on 'global/Traps/Form' or a supercontext."

  static let ambiguousTotalWeight =
    "requestable 'total-weight' is ambiguous from context 'global/COP101': it is provided "
    + "below by 'global/COP101/Assignments' and 'global/COP101/Exams', and a requestable is "
    + "visible only at and below the context it was added to. Request it from one of those "
    + "contexts, or add one on 'global/COP101' or a supercontext."

  static let onlyBelow =
    "no requestable 'grade' is visible from context 'global/Traps': it is provided only "
    + "below, by 'global/Traps/Form', and a requestable is visible only at and below the "
    + "context it was added to. Request it from 'global/Traps/Form', or add one on "
    + "'global/Traps' or a supercontext."

  static let conditionFailed =
    "requestable 'grade' (added on 'global/Traps') was used from context "
    + "'global/Traps/Form' while its condition (if:) does not hold. Check isRequestable(_:) "
    + "first, call tryRequest(_:), or add the requestable without a condition."

  static let attachedConditionFailed =
    "requestable 'total-weight' (added on 'global/COP101/Assignments') was used from context "
    + "'global/COP101/Assignments' while its condition (view 'TotalField' attached to a "
    + "window) does not hold. Check isRequestable(_:) first, call tryRequest(_:), or add the "
    + "requestable without a condition."

  static let typeMismatch =
    "requestable 'grade' (added on 'global/Traps') provides Optional<Double>, but context "
    + "'global/Traps/Form' requested it as Int. Request it as Optional<Double>."

  static let requestableTaken =
    "context 'global/Traps' already has a requestable 'grade' that has not expired. Give the "
    + "new one another name, remove the old one first, or add the old one with an expiry "
    + "(expiresIf:, expiresWith: or ifAttached:) so that it is replaced once it expires."

  static let executableTaken =
    "context 'global/Traps' already has an executable 'swap' that has not expired. Give the "
    + "new one another name, remove the old one first, or add the old one with an expiry "
    + "(expiresIf:, expiresWith: or ifAttached:) so that it is replaced once it expires."

  static let flagAlreadySet =
    "flag 'edited' is already set (on 'global/Traps') as seen from context "
    + "'global/Traps/Form'; setting a set flag is a logic error. Check flagIsSet(_:) first, "
    + "or call trySetFlag(_:)."

  static let flagNotSet =
    "flag 'edited' is not set on context 'global/Traps' or a supercontext; unsetting an unset "
    + "flag is a logic error. It is set below, on 'global/Traps/Form', and a flag is visible "
    + "only at and below the context it was set on. Check flagIsSet(_:) first, or call "
    + "tryUnsetFlag(_:)."

  static let executableNotFound =
    "no executable 'swap' is visible from context 'global/Traps': none was added there or on "
    + "a supercontext, and none below. Add it with addExecutable(_:executing:) on "
    + "'global/Traps' or a supercontext."

  static let executableAmbiguous =
    "executable 'swap-weight-input-views' is ambiguous from context 'global/COP101': it is "
    + "provided below by 'global/COP101/Assignments' and 'global/COP101/Exams', and an "
    + "executable is visible only at and below the context it was added to. Execute it from "
    + "one of those contexts, or add one on 'global/COP101' or a supercontext."

  static let executableConditionFailed =
    "executable 'swap' (added on 'global/Traps') was used from context 'global/Traps' while "
    + "its condition (if:) does not hold. Check isExecutable(_:) first, call tryExecute(_:), "
    + "or add the executable without a condition."

  static let contextHasAnotherView =
    "view 'Second' cannot link to context 'global/Traps/Profile': the context already serves "
    + "view 'First', and a context serves exactly one view. Give 'Second' its own context, or "
    + "unlink 'First' first."

  static let viewCycle =
    "view 'Outer' cannot be added under view 'Inner': 'Inner' is 'Outer' or lies inside it, "
    + "and a view cannot contain itself. Add it under another view."
}
