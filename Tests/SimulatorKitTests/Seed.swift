import Testing

@testable import SimulatorKit
