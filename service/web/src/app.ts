// The page at / of `referee serve --http-port`: the games from ListGames, a deal of the one
// picked, and the dealer's view of every seat, over Connect (JSON) with connect-web.
import { createClient, ConnectError } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { RefereeService } from "./gen/referee/v1/referee_service_pb";

const client = createClient(RefereeService, createConnectTransport({ baseUrl: window.location.origin }));

function element(tag: string, text = "", attributes: Record<string, string> = {}): HTMLElement {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

async function deal(game: string): Promise<void> {
  const out = document.getElementById("deal")!;
  out.replaceChildren(element("p", `dealing ${game} ...`));
  try {
    const dealt = await client.deal({ game });
    const table = element("table", "", { id: "views" });
    table.append(element("tr", "", {}));
    table.firstChild!.append(element("th", "seat"), element("th", "phase"), element("th", "hand"));
    for (const view of dealt.views) {
      const row = element("tr", "", { class: "view", "data-seat": String(view.seat) });
      row.append(element("td", String(view.seat)), element("td", view.phase),
                 element("td", view.hand?.text ?? "", { class: "hand" }));
      table.append(row);
    }
    out.replaceChildren(element("h2", `${game}: to act ${dealt.toAct.join(", ")}, seq ${dealt.seq}`,
                                { id: "dealt", "data-game": game }), table);
  } catch (error) {
    const failure = ConnectError.from(error);
    out.replaceChildren(element("p", `${failure.code}: ${failure.rawMessage}`, { id: "error" }));
  }
}

async function main(): Promise<void> {
  const list = document.getElementById("games")!;
  const answer = await client.listGames({});
  for (const game of answer.games) {
    const item = element("li", "", { class: "game", "data-id": game.id });
    const button = element("button", `Deal ${game.id}`, { id: `deal-${game.id}` });
    button.addEventListener("click", () => void deal(game.id));
    item.append(element("span", `${game.name} (${game.minSeats}-${game.maxSeats} seats) `), button);
    list.append(item);
  }
  document.body.setAttribute("data-ready", "1");
}

void main();
