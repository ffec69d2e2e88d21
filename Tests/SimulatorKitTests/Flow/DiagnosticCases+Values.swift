@testable import SimulatorKit

extension Diagnostics {
  /// Values, variables, arithmetic, paths and limits.
  static let valueCases: [Case] = [
    Case(
      .wrongValueKind, "network latency 5x",
      #"""
      Flows/test.flow:1:17: error: expected a duration like '5s' for the latency, got '5x'
          1 | network latency 5x
            |                 ^~
      hint: a duration is a number and a unit (ns, us, ms, s, m, h, d): 250ms, 1.5s, 2m, 1h30m
      """#),
    Case(
      .wrongValueKind, "network latency 5",
      #"""
      Flows/test.flow:1:17: error: expected a duration like '5s' for the latency, got '5'
          1 | network latency 5
            |                 ^
      hint: add a unit: 250ms, 5s, 2m or 1h
      """#),
    Case(
      .wrongValueKind, "views 2.5 observe auth.state",
      #"""
      Flows/test.flow:1:7: error: expected a whole number for the view count, got '2.5'
          1 | views 2.5 observe auth.state
            |       ^~~
      hint: usage: views N observe PATH [via observation] [as NAME]
      """#),
    Case(
      .wrongValueKind, "views abc observe auth.state",
      #"""
      Flows/test.flow:1:7: error: expected a whole number for the view count, got 'abc'
          1 | views abc observe auth.state
            |       ^~~
      hint: usage: views N observe PATH [via observation] [as NAME]
      """#),
    Case(
      .unknownEnumWord, "form.set metric=hartRate",
      #"""
      Flows/test.flow:1:17: error: unknown metric 'hartRate'
          1 | form.set metric=hartRate
            |                 ^~~~~~~~
      hint: did you mean 'heartRate'?
      """#),
    Case(
      .unknownEnumWord, "network fault 500",
      #"""
      Flows/test.flow:1:15: error: unknown network fault '500'
          1 | network fault 500
            |               ^~~
      hint: expected one of: timeout, drop, 5xx, 429, truncated, garbage
      """#),
    Case(
      .unknownEnumWord, "views 10 obsrve auth.state",
      #"""
      Flows/test.flow:1:10: error: expected 'observe', got 'obsrve'
          1 | views 10 obsrve auth.state
            |          ^~~~~~
      hint: did you mean 'observe'?
      """#),
    Case(
      .valueOutOfRange, "network fault drop rate=1.5",
      #"""
      Flows/test.flow:1:25: error: rate= must be between 0 and 1, got 1.5
          1 | network fault drop rate=1.5
            |                         ^~~
      hint: usage: network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] [path=PATTERN] [status=N] [retry-after=DURATION]
      """#),
    Case(
      .valueOutOfRange, "views 0 observe auth.state",
      #"""
      Flows/test.flow:1:7: error: the view count must be between 1 and 10,000,000, got 0
          1 | views 0 observe auth.state
            |       ^
      hint: usage: views N observe PATH [via observation] [as NAME]
      """#),
    Case(
      .unknownVariable, "log $j",
      #"""
      Flows/test.flow:1:5: error: unknown variable '$j'
          1 | log $j
            |     ^~
      hint: define it first with 'let j = VALUE', or pass --define j=VALUE
      """#),
    Case(
      .unknownVariable, "repeat 2 { log $ii }",
      #"""
      Flows/test.flow:1:16: error: unknown variable '$ii'
          1 | repeat 2 { log $ii }
            |                ^~~
      hint: did you mean '$i'?
      """#),
    Case(
      .unknownVariable, "log $i",
      #"""
      Flows/test.flow:1:5: error: unknown variable '$i'
          1 | log $i
            |     ^~
      hint: '$i' is defined only inside 'repeat N { ... }'
      """#),
    Case(
      .duplicateVariable, "let x = 1\nlet x = 2",
      #"""
      Flows/test.flow:2:5: error: variable '$x' is already defined on line 1
          2 | let x = 2
            |     ^
      hint: use another name; a variable can be redefined only in a nested block
      """#),
    Case(
      .badNumber, "seed 12x",
      #"""
      Flows/test.flow:1:6: error: bad number '12x' for seed
          1 | seed 12x
            |      ^~~
      hint: a seed is a whole number from 0 to 18446744073709551615
      """#),
    Case(
      .badDate, "form.set value=1 date=2026-02-30",
      #"""
      Flows/test.flow:1:23: error: '2026-02-30' is not a valid date for date=
          1 | form.set value=1 date=2026-02-30
            |                       ^~~~~~~~~~
      hint: write YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, today-3d, now or now-2h
      """#),
    Case(
      .badDate, "form.set date=yesterday",
      #"""
      Flows/test.flow:1:15: error: bad date 'yesterday' for date=
          1 | form.set date=yesterday
            |               ^~~~~~~~~
      hint: write YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, today-3d, now or now-2h
      """#),
    Case(
      .badRepeatCount, "repeat 0 { log x }",
      #"""
      Flows/test.flow:1:8: error: repeat count must be a positive whole number, got '0'
          1 | repeat 0 { log x }
            |        ^
      hint: write repeat N { ... } with N of at least 1
      """#),
    Case(
      .badRepeatCount, "repeat -1 { log x }",
      #"""
      Flows/test.flow:1:8: error: repeat count must be a positive whole number, got '-1'
          1 | repeat -1 { log x }
            |        ^~
      hint: write repeat N { ... } with N of at least 1
      """#),
    Case(
      .badRepeatCount, "repeat abc { log x }",
      #"""
      Flows/test.flow:1:8: error: repeat count must be a positive whole number, got 'abc'
          1 | repeat abc { log x }
            |        ^~~
      hint: write repeat N { ... } with N of at least 1
      """#),
    Case(
      .stepCapExceeded, "repeat 1_000_001 { log x }",
      #"""
      Flows/test.flow:1:1: error: flow expands to more than 1,000,000 steps
          1 | repeat 1_000_001 { log x }
            | ^~~~~~~~~~~~~~~~
      hint: lower a repeat count, or split the flow into several files
      """#),
    Case(
      .unknownPath, "expect auth.stat == idle",
      #"""
      Flows/test.flow:1:8: error: unknown path 'auth.stat'
          1 | expect auth.stat == idle
            |        ^~~~~~~~~
      hint: did you mean 'auth.state'?
      """#),
    Case(
      .badPath, "expect \'x\' == 1",
      #"""
      Flows/test.flow:1:8: error: bad path ''x''
          1 | expect 'x' == 1
            |        ^~~
      hint: a path is names joined by '.', like dashboard.summary.totalSteps
      """#),
    Case(
      .divisionByZero, "log $(1/0)",
      #"""
      Flows/test.flow:1:8: error: division by zero in $(...)
          1 | log $(1/0)
            |        ^
      hint: check the divisor; loop counters start at 1
      """#),
    Case(
      .divisionByZero, "log $(5 % (2-2))",
      #"""
      Flows/test.flow:1:9: error: division by zero in $(...) (remainder by zero)
          1 | log $(5 % (2-2))
            |         ^
      hint: check the divisor; loop counters start at 1
      """#),
    Case(
      .arithmeticOverflow, "log $(9223372036854775807 + 1)",
      #"""
      Flows/test.flow:1:27: error: arithmetic overflow in $(...): 9223372036854775807 + 1 does not fit in a whole number
          1 | log $(9223372036854775807 + 1)
            |                           ^
      hint: whole numbers go up to 9223372036854775807
      """#),
    Case(
      .unknownVariable, "log $(a)",
      #"""
      Flows/test.flow:1:7: error: unknown variable '$a'
          1 | log $(a)
            |       ^
      hint: define it first with 'let a = VALUE', or pass --define a=VALUE
      """#),
    Case(
      .wrongValueKind, "expect outbox.count < idle",
      #"""
      Flows/test.flow:1:23: error: '<' compares numbers, durations or dates, got idle
          1 | expect outbox.count < idle
            |                       ^~~~
      hint: use '==', '!=' or 'contains' for other values
      """#),
    Case(
      .wrongValueKind, "expect auth.state is idle",
      #"""
      Flows/test.flow:1:19: error: expected a comparison (==, !=, <, <=, >, >=, contains), got 'is'
          1 | expect auth.state is idle
            |                   ^~
      hint: usage: expect PATH ==|!=|<|<=|>|>=|contains VALUE
      """#),
    Case(
      .unknownViewGroup, "views detach nothing",
      #"""
      Flows/test.flow:1:14: error: no views named 'nothing' are attached
          1 | views detach nothing
            |              ^~~~~~~
      hint: no views are attached at this point; attach some with 'views N observe PATH'
      """#),
    Case(
      .unknownViewGroup, "views 5 observe auth.state\nviews detach auth.state 9",
      #"""
      Flows/test.flow:2:14: error: cannot detach 9 views from 'auth.state': only 5 are attached
          2 | views detach auth.state 9
            |              ^~~~~~~~~~
      hint: detach at most 5, or leave out the count to detach all
      """#),
    Case(
      .valueOutOfRange, "wait sync.idle timeout=0s",
      #"""
      Flows/test.flow:1:24: error: timeout= must be longer than 0s
          1 | wait sync.idle timeout=0s
            |                        ^~
      hint: leave it out to use the runner's default timeout
      """#),
    Case(
      .badDate, "dashboard.range custom from=today to=today-1d",
      #"""
      Flows/test.flow:1:38: error: to= must not be before from=
          1 | dashboard.range custom from=today to=today-1d
            |                                      ^~~~~~~~
      hint: swap the dates, or pick a later to=
      """#),
    Case(
      .badPath, "context.request x at=a//b",
      #"""
      Flows/test.flow:1:22: error: bad context path 'a//b'
          1 | context.request x at=a//b
            |                      ^~~~
      hint: a context path is names joined by '/', like global/Class/assignments
      """#),
    Case(
      .unknownEnumWord, "feature x of",
      #"""
      Flows/test.flow:1:11: error: unknown on/off value 'of'
          1 | feature x of
            |           ^~
      hint: did you mean 'off'?
      """#),
    Case(
      .unknownPath, "expect a.b.c == 1",
      #"""
      Flows/test.flow:1:8: error: unknown path 'a.b.c'
          1 | expect a.b.c == 1
            |        ^~~~~
      hint: no known path is close; check it against the runner's list of paths
      """#),
    Case(
      .unknownEnumWord, "repeat 2 sa k { log x }",
      #"""
      Flows/test.flow:1:10: error: expected 'as', got 'sa'
          1 | repeat 2 sa k { log x }
            |          ^~
      hint: did you mean 'as'?
      """#),
    Case(
      .wrongValueKind, "grades.set assignments.count=2.5",
      #"""
      Flows/test.flow:1:30: error: expected a whole number for assignments.count=, got '2.5'
          1 | grades.set assignments.count=2.5
            |                              ^~~
      hint: usage: grades.set GROUP.FIELD=NUMBER ...
      """#),
    Case(
      .valueOutOfRange, "clock advance 99999999999999h",
      #"""
      Flows/test.flow:1:15: error: duration '99999999999999h' for clock advance is too long
          1 | clock advance 99999999999999h
            |               ^~~~~~~~~~~~~~~
      hint: durations go up to about 292 years
      """#),
    Case(
      .badNumber, "expect outbox.count == 99999999999999999999",
      #"""
      Flows/test.flow:1:24: error: number '99999999999999999999' is too large
          1 | expect outbox.count == 99999999999999999999
            |                        ^~~~~~~~~~~~~~~~~~~~
      hint: whole numbers go up to 9223372036854775807
      """#),
    Case(
      .badDate, "expect clock.now == 2026-13-01",
      #"""
      Flows/test.flow:1:21: error: '2026-13-01' is not a valid date
          1 | expect clock.now == 2026-13-01
            |                     ^~~~~~~~~~
      hint: write YYYY-MM-DD, YYYY-MM-DDTHH:MM, today, today-3d, now or now-2h
      """#),
    Case(
      .valueOutOfRange, "network fault 5xx status=600",
      #"""
      Flows/test.flow:1:26: error: status= must be between 500 and 599, got 600
          1 | network fault 5xx status=600
            |                          ^~~
      hint: usage: network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] [path=PATTERN] [status=N] [retry-after=DURATION]
      """#),
  ]
}
