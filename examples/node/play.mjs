// A Node backend on the referee: the owner deals, one client per seat (each holding only its own
// credential) plays, over gRPC with @grpc/grpc-js and @grpc/proto-loader; errors are decoded from
// their google.rpc.ErrorInfo; then the same API over Connect with connect-node.
//
//   npm ci && npm run gen && node play.mjs 127.0.0.1:50051 [http://127.0.0.1:8080]
//
// Prints one JSON line: what each round did and the errors it provoked on purpose.
import path from "node:path";
import { fileURLToPath } from "node:url";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";
import protobuf from "protobufjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const PROTOS = path.join(here, "..", "..", "protos");
const GOOGLE = path.join(here, "node_modules", "google-proto-files");  // google/rpc/*.proto

// keepCase: the .proto's field names (without it `expected_seq` is silently dropped);
// longs: Number (seq and points are 64-bit); defaults: seq 0, seat 0 and empty lists present
const LOADER = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true, includeDirs: [PROTOS] };
const api = grpc.loadPackageDefinition(protoLoader.loadSync("referee/v1/referee_service.proto", LOADER)).referee.v1;

// google.rpc.Status and ErrorInfo, to read the grpc-status-details-bin trailer
const rpc = new protobuf.Root();
rpc.resolvePath = (_, target) => path.join(GOOGLE, target);
rpc.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"], { keepCase: true });
const Status = rpc.lookupType("google.rpc.Status");
const ErrorInfo = rpc.lookupType("google.rpc.ErrorInfo");

function errorInfo(error) {
  const [details] = error.metadata?.get("grpc-status-details-bin") ?? [];
  if (!details) return null;
  for (const any of Status.decode(details).details) {
    if (any.type_url === "type.googleapis.com/google.rpc.ErrorInfo") return ErrorInfo.decode(any.value);
  }
  return null;
}

let seed = 12345;
function random(n) {  // a small LCG: the same choices on every run
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
}

class Caller {
  constructor(target, credential) {
    this.stub = new api.RefereeService(target, grpc.credentials.createInsecure());
    this.credential = credential;
  }
  call(method, request) {
    const metadata = new grpc.Metadata();
    if (this.credential) metadata.set("authorization", `Bearer ${Buffer.from(this.credential).toString("base64url")}`);
    return new Promise((resolve, reject) =>
      this.stub[method](request, metadata, (error, answer) => (error ? reject(error) : resolve(answer))));
  }
  close() { this.stub.close(); }
}

async function expectError(promise) {
  try {
    await promise;
  } catch (error) {
    const info = errorInfo(error);
    return { code: grpc.status[error.code], reason: info?.reason ?? null, domain: info?.domain ?? null };
  }
  throw new Error("the call was expected to fail");
}

async function playRound(target, game) {
  const dealer = new Caller(target, null);
  const deal = await dealer.call("Deal", { game });
  dealer.close();
  const owner = new Caller(target, deal.owner_credential);
  const seats = deal.seat_credentials.map((credential) => new Caller(target, credential));
  let { state, seq, to_act: toAct } = deal;
  let finished = false, calls = 1, answers = 0;
  const errors = [];
  while (!finished) {
    if (errors.length === 0) {  // once: a seat that is not awaited, then a seat acting as another
      const idle = seats.findIndex((_, s) => !toAct.includes(s));
      if (idle >= 0) {
        errors.push(await expectError(seats[idle].call("Play", { state, action: { seat: idle, kind: "PASS" } })));
        errors.push(await expectError(seats[idle].call("Play", { state, action: { seat: toAct[0], kind: "PASS" } })));
      }
    }
    const sealed = [];
    let next = null;
    for (const seat of toAct) {
      const { actions } = await seats[seat].call("LegalActions", { state, seat });
      const { action } = actions[random(actions.length)];
      const reply = await seats[seat].call("Play", { state, action, expected_seq: seq });
      calls += 2;
      if (reply.answer.length) sealed.push(reply.answer);  // a simultaneous decision: sealed, no new state
      else { next = reply; break; }
    }
    if (!next) {  // the owner applies the seats' sealed answers
      next = await owner.call("Play", { state, answers: sealed, expected_seq: seq });
      answers += sealed.length;
      calls += 1;
    }
    ({ state, seq, finished } = next);
    if (!finished) {  // who is awaited, as the owner sees it (a seat sees only itself in a claim window)
      toAct = (await owner.call("GetView", { state })).to_act;
      calls += 1;
    }
  }
  const score = await owner.call("Score", { state });
  for (const c of [owner, ...seats]) c.close();
  const points = score.settlement.points;
  return { game, seq, calls, answers, outcome: score.settlement.outcome, points,
           zero_sum: points.reduce((a, b) => a + b, 0) === 0, errors };
}

async function connect(url) {
  const { createClient, ConnectError } = await import("@connectrpc/connect");
  const { createConnectTransport } = await import("@connectrpc/connect-node");
  const { RefereeService } = await import("./gen/referee/v1/referee_service_pb.js");
  const client = createClient(RefereeService, createConnectTransport({ baseUrl: url, httpVersion: "1.1" }));
  const games = (await client.listGames({})).games.map((g) => g.id);
  const dealt = await client.deal({ game: "mcr" });
  let refused = null;
  try {
    await client.deal({ game: "no-such-game" });
  } catch (error) {
    const failure = ConnectError.from(error);
    const detail = failure.details.find((d) => d.type === "google.rpc.ErrorInfo");
    refused = { code: failure.code, reason: detail ? ErrorInfo.decode(detail.value).reason : null };
  }
  return { games, seats: dealt.seatCredentials.length, refused };
}

const [target = "127.0.0.1:50051", url] = process.argv.slice(2);
const rounds = [await playRound(target, "doudizhu"), await playRound(target, "mcr")];
const out = { rounds, connect: url ? await connect(url) : null };
console.log(JSON.stringify(out));
