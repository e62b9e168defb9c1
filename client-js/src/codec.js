// Binary msgpack frames, as the server speaks them (docs/protocol.md).
import { decode, encode } from "@msgpack/msgpack";

export function encodeMessage(message) {
  return encode(message);
}

export function decodeMessage(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  const message = decode(bytes);
  if (message === null || typeof message !== "object" || typeof message.type !== "string") {
    throw new Error("server sent a frame that is not a message");
  }
  return message;
}
