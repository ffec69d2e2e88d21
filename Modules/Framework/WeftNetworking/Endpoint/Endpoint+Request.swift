import Foundation

extension Endpoint {
  /// Builds the request against `baseURL`.
  ///
  /// - Throws: ``NetworkError`` of kind `.encoding` when the body cannot be encoded or the
  ///   path does not make a URL.
  func makeRequest(
    baseURL: URL, defaultHeaders: HTTPHeaders, coding: JSONCoding
  ) throws(NetworkError) -> HTTPRequest {
    guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
      throw encodingError("base URL \(baseURL) cannot be split into components", baseURL)
    }
    let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
    components.path = base + (path.hasPrefix("/") ? path : "/" + path)
    if !query.isEmpty {
      components.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) }
    }
    guard let url = components.url else {
      throw encodingError("path \"\(path)\" does not make a valid URL with \(baseURL)", baseURL)
    }
    var request = HTTPRequest(method: method, url: url, headers: defaultHeaders.merging(headers))
    if let idempotencyKey { request.headers[HTTPRequest.idempotencyKeyHeader] = idempotencyKey }
    if let body {
      do {
        request.body = try coding.makeEncoder().encode(body)
      } catch {
        throw encodingError("the body of type \(type(of: body)) did not encode: \(error)", url)
      }
      if request.headers["Content-Type"] == nil {
        request.headers["Content-Type"] = "application/json"
      }
    }
    if request.headers["Accept"] == nil { request.headers["Accept"] = "application/json" }
    return request
  }

  /// Decodes a 2xx response's body.
  func decode(
    _ response: HTTPResponse, coding: JSONCoding, request: HTTPRequest, attempt: Int
  ) throws(NetworkError) -> Response {
    if Response.self == NoContent.self, let empty = NoContent() as? Response { return empty }
    if JSONNesting.exceeds(coding.maximumNestingDepth, in: response.body) {
      throw NetworkError(
        .decoding(
          codingPath: "",
          message: "the JSON nests arrays and objects deeper than the limit of "
            + "\(coding.maximumNestingDepth) levels (JSONCoding.maximumNestingDepth); it was "
            + "not decoded"),
        request: request, endpoint: name, attempt: attempt)
    }
    do {
      return try coding.makeDecoder().decode(Response.self, from: response.body)
    } catch let error as DecodingError {
      throw NetworkError(
        .decoding(codingPath: error.codingPathText, message: error.summary),
        request: request, endpoint: name, attempt: attempt)
    } catch {
      throw NetworkError(
        .decoding(codingPath: "", message: "\(error)"), request: request, endpoint: name,
        attempt: attempt)
    }
  }

  private func encodingError(_ message: String, _ url: URL) -> NetworkError {
    NetworkError(
      .encoding(message: message), method: method, url: url, endpoint: name, attempt: 0)
  }
}

extension DecodingError {
  /// The coding path as `items[2].createdAt`; empty at the root.
  var codingPathText: String {
    let path: [any CodingKey]
    switch self {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context), .dataCorrupted(let context):
      path = context.codingPath
      if case .keyNotFound(let key, _) = self { return Self.render(path + [key]) }
    @unknown default:
      path = []
    }
    return Self.render(path)
  }

  /// What went wrong, in one sentence.
  var summary: String {
    switch self {
    case .typeMismatch(let type, let context):
      "expected a value of type \(type): \(context.debugDescription)"
    case .valueNotFound(let type, let context):
      "expected a value of type \(type), found null: \(context.debugDescription)"
    case .keyNotFound(let key, _):
      "the key \"\(key.stringValue)\" is missing"
    case .dataCorrupted(let context):
      "the data is not valid JSON for this type: \(context.debugDescription)"
    @unknown default:
      "\(self)"
    }
  }

  private static func render(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }
}
