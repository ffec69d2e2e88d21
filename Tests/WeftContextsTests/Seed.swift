import Testing

@testable import WeftContexts
