import Testing

@testable import WeftNetworking
