import Testing

@testable import WeftCore
