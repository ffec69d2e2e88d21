import Testing

@testable import AuthFeature
