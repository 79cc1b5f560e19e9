// What the board page knows, in one place every module of the page reads: the latest snapshot
// from the board (docs/web.md's HTTP API), the LEDs, the back end and the link to it.

export const page = {
  snap: null,                      // the latest state snapshot from the board
  leds: "",                        // the LED colours, six hex digits a cell
  board: null,                     // the back end (board.js)
  link: { kind: "connecting", text: "connecting…" },   // openLink()'s status (link.js)
  heartbeat: null,                 // the server's latest heartbeat (docs/web.md)
  engineChoice: null,              // the last computer_move / suggestion event: {event, cell, side}
  asked: {},                       // a box the player set, shown so until the board answers
  render: () => {},                // redraws the page from the above (app.js)
};

// The settings hexes (docs/board.md, "Settings"), in the order of the firmware's settings: the
// key printed on the board's diagram and what each sets. Their values are named as the panel's
// own controls name them (settingWords), so the words live in one place, index.html.
export const SETTING_KEYS = [["rules", "R", "rules"], ["penalty", "P", "penalty option"],
                             ["hints", "H", "hints"], ["brightness", "B", "brightness"],
                             ["palette", "C", "palette"], ["computer", "K", "computer plays"],
                             ["level", "V", "computer's level"]];

export const FACE_NAMES = { D: "dark disk", L: "light disk", d: "captive (red side up), hidden colour dark",
                            l: "captive (red side up), hidden colour light", "?": "a disk the game does not have" };
