@testable import SimulatorKit

extension Diagnostics {
  /// Commands, arguments, blocks and syntax.
  static let statementCases: [Case] = [
    Case(
      .unknownCommand, "logn email=ada@example.com",
      #"""
      Flows/test.flow:1:1: error: unknown command 'logn'
          1 | logn email=ada@example.com
            | ^~~~
      hint: did you mean 'login'?
      """#),
    Case(
      .unknownCommand, "netwrk offline",
      #"""
      Flows/test.flow:1:1: error: unknown command 'netwrk offline'
          1 | netwrk offline
            | ^~~~~~~~~~~~~~
      hint: did you mean 'network offline'?
      """#),
    Case(
      .unknownCommand, "network offlin",
      #"""
      Flows/test.flow:1:1: error: unknown command 'network offlin'
          1 | network offlin
            | ^~~~~~~~~~~~~~
      hint: did you mean 'network offline'?
      """#),
    Case(
      .unknownCommand, "network",
      #"""
      Flows/test.flow:1:1: error: unknown command 'network'
          1 | network
            | ^~~~~~~
      hint: 'network' is followed by one of: offline, online, latency, fault, faults clear
      """#),
    Case(
      .unknownCommand, "frobnicate now",
      #"""
      Flows/test.flow:1:1: error: unknown command 'frobnicate'
          1 | frobnicate now
            | ^~~~~~~~~~
      hint: see docs/simulator-language.md for every command
      """#),
    Case(
      .unknownArgument, "login email=a pasword=b",
      #"""
      Flows/test.flow:1:15: error: unknown argument 'pasword=' for 'login'
          1 | login email=a pasword=b
            |               ^~~~~~~
      hint: did you mean 'password='?
      """#),
    Case(
      .unknownArgument, "logout now=1",
      #"""
      Flows/test.flow:1:8: error: unknown argument 'now=' for 'logout'
          1 | logout now=1
            |        ^~~
      hint: 'logout' takes no key=value arguments; usage: logout
      """#),
    Case(
      .missingArgument, "login email=ada@example.com",
      #"""
      Flows/test.flow:1:1: error: missing argument 'password=' for 'login'
          1 | login email=ada@example.com
            | ^~~~~
      hint: usage: login email=TEXT password=TEXT
      """#),
    Case(
      .missingArgument, "clock advance",
      #"""
      Flows/test.flow:1:1: error: missing argument DURATION for 'clock advance'
          1 | clock advance
            | ^~~~~~~~~~~~~
      hint: usage: clock advance DURATION
      """#),
    Case(
      .unexpectedArgument, "logout extra",
      #"""
      Flows/test.flow:1:8: error: unexpected argument 'extra' for 'logout'
          1 | logout extra
            |        ^~~~~
      hint: usage: logout
      """#),
    Case(
      .duplicateArgument, "login email=a email=b password=c",
      #"""
      Flows/test.flow:1:15: error: argument 'email=' given twice (first at column 7)
          1 | login email=a email=b password=*
            |               ^~~~~
      hint: keep one of them
      """#),
    Case(
      .unterminatedString, "log \"abc",
      #"""
      Flows/test.flow:1:5: error: unterminated string
          1 | log "abc
            |     ^~~~
      hint: close it with '"' on the same line
      """#),
    Case(
      .invalidEscape, "log \"a\\qb\"",
      #"""
      Flows/test.flow:1:7: error: unknown escape '\q' in a string
          1 | log "a\qb"
            |       ^~
      hint: the escapes are \" \\ \n \t and \$
      """#),
    Case(
      .unbalancedBrace, "repeat 2 {\n  log x\n",
      #"""
      Flows/test.flow:1:10: error: '{' is never closed
          1 | repeat 2 {
            |          ^
      hint: add '}' to close the block opened on line 1
      """#),
    Case(
      .unbalancedBrace, "log x }",
      #"""
      Flows/test.flow:1:7: error: unexpected '}' with no matching '{'
          1 | log x }
            |       ^
      hint: remove it, or open the block with 'repeat N {'
      """#),
    Case(
      .unbalancedBrace, "repeat 3\nlog x",
      #"""
      Flows/test.flow:1:1: error: 'repeat' needs a block
          1 | repeat 3
            | ^~~~~~
      hint: usage: repeat N [as NAME] [together] { ... }
      """#),
    Case(
      .unexpectedBlock, "logout { log x }",
      #"""
      Flows/test.flow:1:8: error: 'logout' does not take a block
          1 | logout { log x }
            |        ^
      hint: only 'repeat' and 'together' take a { ... } block
      """#),
    Case(
      .duplicateFlow, "flow \"a\"\nflow \"b\"",
      #"""
      Flows/test.flow:2:1: error: duplicate 'flow': the flow is already named on line 1
          2 | flow "b"
            | ^~~~
      hint: keep one 'flow "name"' line
      """#),
    Case(
      .misplacedStatement, "log x\nflow \"a\"",
      #"""
      Flows/test.flow:2:1: error: 'flow' must come before other statements
          2 | flow "a"
            | ^~~~
      hint: move it to the first line of the file
      """#),
    Case(
      .duplicateSeed, "seed 1\nseed 2",
      #"""
      Flows/test.flow:2:1: error: duplicate 'seed': the seed is already set on line 1
          2 | seed 2
            | ^~~~
      hint: keep one 'seed N' line
      """#),
    Case(
      .duplicateDate, "date 2026-03-01\ndate 2026-03-02",
      #"""
      Flows/test.flow:2:1: error: duplicate 'date': the wall clock is already set on line 1
          2 | date 2026-03-02
            | ^~~~
      hint: keep one 'date INSTANT' line
      """#),
    Case(
      .misplacedStatement, "repeat 2 { date 2026-03-01 }",
      #"""
      Flows/test.flow:1:12: error: 'date' must be at the top level, not inside a block
          1 | repeat 2 { date 2026-03-01 }
            |            ^~~~
      hint: move it near the top of the file
      """#),
    Case(
      .badDate, "date today-1d",
      #"""
      Flows/test.flow:1:6: error: 'today-1d' is relative to the wall clock that 'date' sets
          1 | date today-1d
            |      ^~~~~~~~
      hint: write an instant such as 2026-03-01T09:00:00Z, 2026-03-01T09:00 or 2026-03-01
      """#),
    Case(
      .badDate, "date 2026-02-30",
      #"""
      Flows/test.flow:1:6: error: '2026-02-30' is not a valid date for date
          1 | date 2026-02-30
            |      ^~~~~~~~~~
      hint: write an instant such as 2026-03-01T09:00:00Z, 2026-03-01T09:00 or 2026-03-01
      """#),
    Case(
      .misplacedStatement, "repeat 2 { seed 1 }",
      #"""
      Flows/test.flow:1:12: error: 'seed' must be at the top level, not inside a block
          1 | repeat 2 { seed 1 }
            |            ^~~~
      hint: move it near the top of the file
      """#),
    Case(
      .badExpression, "log $(1 +)",
      #"""
      Flows/test.flow:1:10: error: expected a number, a variable or '(' before ')' in $(...)
          1 | log $(1 +)
            |          ^
      """#),
    Case(
      .badExpression, "log $(1 + 2",
      #"""
      Flows/test.flow:1:5: error: unterminated '$(': missing ')'
          1 | log $(1 + 2
            |     ^~
      hint: close the expression on the same line
      """#),
    Case(
      .syntax, "log 12$",
      #"""
      Flows/test.flow:1:7: error: expected a variable name or '(' after '$'
          1 | log 12$
            |       ^
      hint: quote text that contains a dollar sign and write it as \$
      """#),
    Case(
      .syntax, "email=x",
      #"""
      Flows/test.flow:1:1: error: expected a command, got 'email='
          1 | email=x
            | ^~~~~
      hint: a statement starts with a command word, like 'login' or 'expect'
      """#),
    Case(
      .syntax, "login email= password=x",
      #"""
      Flows/test.flow:1:7: error: missing value after 'email='
          1 | login email= password=x
            |       ^~~~~~
      hint: write key=value with no spaces around '='; use "" for an empty value
      """#),
    Case(
      .syntax, "login email =x password=y",
      #"""
      Flows/test.flow:1:13: error: unexpected '='
          1 | login email =x password=y
            |             ^
      hint: write key=value with no spaces around '=', or '==' to compare
      """#),
    Case(
      .syntax, "expect auth.state = idle",
      #"""
      Flows/test.flow:1:19: error: unexpected '='
          1 | expect auth.state = idle
            |                   ^
      hint: write key=value with no spaces around '=', or '==' to compare
      """#),
    Case(
      .unexpectedArgument, "network fault timeout status=503",
      #"""
      Flows/test.flow:1:23: error: 'status=' applies only to 'network fault 5xx'
          1 | network fault timeout status=503
            |                       ^~~~~~~~~~
      hint: usage: network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] [path=PATTERN] [status=N] [retry-after=DURATION]
      """#),
    Case(
      .missingArgument, "open dashboard range=custom from=today",
      #"""
      Flows/test.flow:1:1: error: missing argument 'to=' for 'open dashboard'
          1 | open dashboard range=custom from=today
            | ^~~~~~~~~~~~~~
      hint: usage: open dashboard [range=day|week|month|custom] [from=DATE] [to=DATE]
      """#),
    Case(
      .unexpectedArgument, "open dashboard range=week from=today",
      #"""
      Flows/test.flow:1:27: error: 'from=' applies only with range=custom
          1 | open dashboard range=week from=today
            |                           ^~~~~~~~~~
      hint: usage: open dashboard [range=day|week|month|custom] [from=DATE] [to=DATE]
      """#),
    Case(
      .syntax, "\"hello\"",
      #"""
      Flows/test.flow:1:1: error: expected a command, got a string
          1 | "hello"
            | ^~~~~~~
      hint: a statement starts with a command word, like 'login' or 'expect'
      """#),
    Case(
      .syntax, "let x.y = 1",
      #"""
      Flows/test.flow:1:5: error: bad variable name 'x.y'
          1 | let x.y = 1
            |     ^~~
      hint: a variable name is a letter or '_' followed by letters, digits or '_'
      """#),
    Case(
      .syntax, "repeat 2 as 9 { log x }",
      #"""
      Flows/test.flow:1:13: error: bad variable name '9'
          1 | repeat 2 as 9 { log x }
            |             ^
      hint: a variable name is a letter or '_' followed by letters, digits or '_'
      """#),
    Case(
      .unbalancedBrace, "log x } y",
      #"""
      Flows/test.flow:1:7: error: unexpected '}' with no matching '{'
          1 | log x } y
            |       ^
      hint: remove it, or open the block with 'repeat N {'
      """#),
    Case(
      .syntax, "repeat 2 { log x } log y",
      #"""
      Flows/test.flow:1:20: error: expected ';' or a new line after '}', got 'log'
          1 | repeat 2 { log x } log y
            |                    ^~~
      hint: start the next statement on a new line or after ';'
      """#),
    Case(
      .unknownArgument, "grades.set assignment.total=5",
      #"""
      Flows/test.flow:1:12: error: unknown argument 'assignment.total=' for 'grades.set'
          1 | grades.set assignment.total=5
            |            ^~~~~~~~~~~~~~~~
      hint: did you mean 'assignments.total='?
      """#),
    Case(
      .missingArgument, "grades.set",
      #"""
      Flows/test.flow:1:1: error: 'grades.set' needs at least one of assignments.total=, assignments.each=, assignments.count=, exams.total=, exams.each=, exams.count=
          1 | grades.set
            | ^~~~~~~~~~
      hint: usage: grades.set GROUP.FIELD=NUMBER ...
      """#),
    Case(
      .missingArgument, "form.set",
      #"""
      Flows/test.flow:1:1: error: 'form.set' needs at least one of metric=, value=, date=, notes=
          1 | form.set
            | ^~~~~~~~
      hint: usage: form.set [metric=METRIC] [value=TEXT] [date=DATE] [notes=TEXT]
      """#),
    Case(
      .nestingTooDeep, "log $(((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))",
      #"""
      Flows/test.flow:1:38: error: expression nested deeper than 32 levels
          1 | log $(((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))
            |                                      ^
      hint: split it with 'let' into smaller expressions
      """#),
  ]
}
