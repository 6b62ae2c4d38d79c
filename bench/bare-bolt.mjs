/**
 * The bare Bolt app the ack benchmark compares Scout with: Bolt's own HTTP receiver on PORT, one listener per kind
 * of request Scout serves, each only acknowledging. Plain JavaScript, run by node as Scout's compiled build is.
 */
import bolt from '@slack/bolt';

const app = new bolt.App({
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
  token: process.env.SLACK_BOT_TOKEN ?? '',
  tokenVerificationEnabled: false,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL ?? 'https://slack.com/api/' },
});
app.command('/scout', async ({ ack }) => ack());
app.action(/.+/, async ({ ack }) => ack());
app.view(/.+/, async ({ ack }) => ack());
await app.start(Number(process.env.PORT));
