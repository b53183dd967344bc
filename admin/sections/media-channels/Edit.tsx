import { RecordLoader } from '../../components/RecordLoader';
import { MediaChannelForm } from './MediaChannelForm';
import { useMediaChannel } from './useMediaChannel';

export default function MediaChannelEdit() {
  return (
    <RecordLoader state={useMediaChannel()} resource="media channel">
      {(channel) => <MediaChannelForm channel={channel} screenerId={String(channel.screenerId)} />}
    </RecordLoader>
  );
}
